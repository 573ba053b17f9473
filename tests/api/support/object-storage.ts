/**
 * An S3-compatible server of a suite's own (scripts/lib/object-storage.ts: s3rver on a free port,
 * its objects in a folder under .test-data), with a client of the test's own to look into the
 * bucket as an operator would, apart from the portal's. `stop` and `restart` take it away and
 * bring it back on the same port with the same objects.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import {
  GetObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  type S3Client,
} from "@aws-sdk/client-s3";
import { type ObjectStorage, startObjectStorage } from "../../../scripts/lib/object-storage";
import { loadConfig } from "../../../server/config";
import { s3ClientFor } from "../../../server/services/blob-stores";

export interface TestObjectStorage {
  /** The portal's S3_* variables for this server. */
  env: Record<string, string>;
  bucket: string;
  client: S3Client;
  /** Every key in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes, read past the portal. */
  object(key: string): Promise<Buffer>;
  /** The keys of unfinished multipart uploads under `prefix`. */
  uploads(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startTestObjectStorage(): Promise<TestObjectStorage> {
  const directory = path.resolve(".test-data", `s3-${randomBytes(4).toString("hex")}`);
  let server: ObjectStorage | null = await startObjectStorage({ directory });
  const { port, env, bucket } = server;
  const client = s3ClientFor(loadConfig({ NODE_ENV: "test", ...env }));
  const stop = async () => {
    await server?.stop();
    server = null;
  };
  return {
    env,
    bucket,
    client,
    async keys(prefix = "") {
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix }))
        keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ""));
      return keys.sort();
    },
    async object(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async uploads(prefix = "") {
      const answer = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
      return (answer.Uploads ?? []).map((upload) => upload.Key ?? "").sort();
    },
    stop,
    async restart() {
      await stop();
      server = await startObjectStorage({ directory, port });
    },
    async close() {
      await stop();
      client.destroy();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
