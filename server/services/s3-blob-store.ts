/**
 * The blob store in an S3-compatible bucket: one object per blob under the store's prefix
 * (`blobs/ab/ab12…`, `data-logs/blobs/ab/ab12…`), so both stores share one bucket. An upload is
 * streamed from its temp file by lib-storage's Upload, in parts for a large file, and a blob
 * appears only once its upload completes, so a reader never sees half a file. What a crash cut
 * off is an unfinished multipart upload, which `removeLeftovers` aborts.
 *
 * The client's network errors, time-outs and the server's 5xx answers become StorageUnavailable,
 * which the error handler answers as a 503 with Retry-After.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  type S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { type BlobStore, type ByteRange, isSha256, RecentlyStored, type StoredBlob, shardedName } from "./blob-store";
import { StorageUnavailable } from "./errors";

/** Parts of 8 MiB, two in flight: an upload holds at most 16 MiB in memory, whatever its size. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

type ClientError = Error & { code?: string; $metadata?: { httpStatusCode?: number }; errors?: unknown[] };

const statusOf = (error: unknown) => (error as ClientError | null)?.$metadata?.httpStatusCode;

/** Whether the storage could not be reached or could not serve: not the request's fault, and worth a retry. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errors } = error as ClientError;
  if (code && NETWORK_CODES.has(code)) return true;
  if (error.name === "TimeoutError") return true;
  if ((statusOf(error) ?? 0) >= 500) return true;
  // Node's connection attempts to each address of a host fail together as one AggregateError.
  return Array.isArray(errors) && errors.some(isUnreachable);
}

/** Runs a call to the storage, its unreachable failures turned into StorageUnavailable. */
async function reaching<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw isUnreachable(error) ? new StorageUnavailable(error) : error;
  }
}

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** The store's folder in the bucket, ending in "/": "blobs/". */
  prefix: string;
  /** Said on the status page: the endpoint or "AWS". */
  endpoint: string;
}

export class S3BlobStore implements BlobStore {
  private readonly stored = new RecentlyStored();
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  readonly location: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.location = `bucket ${options.bucket} at ${options.endpoint}, under ${options.prefix}`;
  }

  keyOf(sha256: string): string {
    return `${this.prefix}${shardedName(sha256)}`;
  }

  /** Streams the temp file to the bucket (in parts when large), unless the blob is there already. */
  async adopt(tempPath: string, sha256: string): Promise<void> {
    this.stored.mark(sha256);
    if (!(await this.exists(sha256))) {
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          Body: createReadStream(tempPath),
          ContentType: "application/octet-stream",
        },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
      });
      await reaching(() => upload.done());
    }
    await rm(tempPath, { force: true });
  }

  /** One PutObject: the object appears whole or not at all. */
  async put(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    this.stored.mark(sha256);
    if (await this.exists(sha256)) return sha256;
    await reaching(() =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: "application/octet-stream",
        }),
      ),
    );
    return sha256;
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      await reaching(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) })));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async read(sha256: string): Promise<Buffer> {
    const body = await this.stream(sha256);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(sha256: string, range?: ByteRange): Promise<Readable> {
    const answer = await reaching(() =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      ),
    );
    // In Node the body is the response's own stream.
    return answer.Body as Readable;
  }

  async list(): Promise<StoredBlob[]> {
    const blobs: StoredBlob[] = [];
    await reaching(async () => {
      for await (const page of paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, Prefix: this.prefix },
      )) {
        for (const object of page.Contents ?? []) {
          const sha256 = object.Key?.slice(object.Key.lastIndexOf("/") + 1) ?? "";
          if (!isSha256(sha256) || object.Key !== this.keyOf(sha256)) continue;
          const writtenAt = object.LastModified?.getTime() ?? 0;
          blobs.push({ sha256, size: object.Size ?? 0, storedAt: this.stored.storedAt(sha256, writtenAt) });
        }
      }
    });
    return blobs;
  }

  remove(sha256: string, unlessStoredAfter: number): Promise<boolean> {
    return this.stored.removeUnlessStoredAfter(sha256, unlessStoredAfter, (hash) => this.removeNow(hash));
  }

  async removeNow(sha256: string): Promise<void> {
    await reaching(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) })));
    this.stored.forget(sha256);
  }

  /** Aborts the multipart uploads under the prefix begun at or before `cutoff`: their parts are removed with them. */
  async removeLeftovers(cutoff: number): Promise<number> {
    let aborted = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await reaching(() =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix, ...markers })),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || (upload.Initiated?.getTime() ?? 0) > cutoff) continue;
        await reaching(() =>
          this.client.send(
            new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }),
          ),
        );
        aborted += 1;
      }
      if (!page.IsTruncated) return aborted;
      markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
  }

  /** HeadBucket: the bucket exists and the keys may use it. */
  async check(): Promise<string> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      const reason =
        status === 404
          ? "the bucket does not exist"
          : status === 403
            ? "the access key is refused (403)"
            : error instanceof Error
              ? error.message || error.name
              : String(error);
      throw new StorageUnavailable(new Error(`${this.location}: ${reason}`, { cause: error }));
    }
    return this.location;
  }
}
