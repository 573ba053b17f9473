/**
 * The app's two blob stores (the files of records, and data logs apart), on the local disk or,
 * with S3_BUCKET set, in one S3-compatible bucket under a prefix each. Several instances on
 * several machines then share the files without sharing a folder.
 */
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import type { Config } from "../config";
import type { BlobStore } from "./blob-store";
import { DiskBlobStore } from "./disk-blob-store";
import { S3BlobStore } from "./s3-blob-store";

export interface BlobStores {
  blobs: BlobStore;
  dataLogBlobs: BlobStore;
  /** Lets go of the storage client's connections. */
  close(): void;
}

type StorageConfig = Pick<
  Config,
  "dataDir" | "s3Bucket" | "s3Endpoint" | "s3Region" | "s3AccessKeyId" | "s3SecretAccessKey"
>;

/** The client for the configured bucket: path-style addresses for an endpoint of its own (`<endpoint>/<bucket>/<key>`). */
export function s3ClientFor(config: StorageConfig): S3Client {
  return new S3Client({
    region: config.s3Region,
    endpoint: config.s3Endpoint,
    forcePathStyle: Boolean(config.s3Endpoint),
    credentials: { accessKeyId: config.s3AccessKeyId ?? "", secretAccessKey: config.s3SecretAccessKey ?? "" },
    // The SDK's default sends streamed bodies with checksum trailers (aws-chunked), which many
    // S3-compatible servers do not read; a checksum is sent where the API requires one.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A storage that is down must not hold requests up: three attempts, then a 503.
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3_000, socketTimeout: 30_000 },
  });
}

export function openBlobStores(config: StorageConfig): BlobStores {
  if (!config.s3Bucket) {
    return {
      blobs: new DiskBlobStore(config.dataDir),
      dataLogBlobs: new DiskBlobStore(path.join(config.dataDir, "data-logs")),
      close() {},
    };
  }
  const client = s3ClientFor(config);
  const store = (prefix: string) =>
    new S3BlobStore({ client, bucket: config.s3Bucket!, prefix, endpoint: config.s3Endpoint ?? "AWS" });
  return { blobs: store("blobs/"), dataLogBlobs: store("data-logs/blobs/"), close: () => client.destroy() };
}

/** Each store answers; else a sentence saying which cannot be used and why, for the start to refuse with. */
export async function checkBlobStores(stores: Pick<BlobStores, "blobs" | "dataLogBlobs">): Promise<string[]> {
  const lines: string[] = [];
  for (const store of [stores.blobs, stores.dataLogBlobs]) {
    try {
      lines.push(await store.check());
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(`Refusing to start: the file storage cannot be used: ${cause}`);
    }
  }
  return lines;
}
