/**
 * A local S3-compatible server with one bucket, for the API tests and `npm run cluster`: s3rver,
 * which runs from npm inside this process and keeps each object as a file under `directory`.
 *
 * s3rver 3.7 does not implement two calls the portal's blob collector makes to clear what a crash
 * left in a bucket: ListMultipartUploads and AbortMultipartUpload. They are answered here, in front
 * of s3rver, from s3rver's own folder of unfinished uploads (`<bucket>/._S3rver_uploads/<uploadId>/`,
 * holding the object's key and the parts received), in S3's XML. Everything else is s3rver's.
 */
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import S3rver from "s3rver";

/** s3rver's one account (its authentication checks requests signed with these). */
const ACCESS_KEY_ID = "S3RVER";
const SECRET_ACCESS_KEY = "S3RVER";

export interface ObjectStorage {
  endpoint: string;
  bucket: string;
  port: number;
  /** The portal's variables for this server. */
  env: Record<string, string>;
  /** Stops answering; open connections are cut, so a client sees the server gone at once. */
  stop(): Promise<void>;
}

export interface ObjectStorageOptions {
  /** Where the objects are kept as files. */
  directory: string;
  bucket?: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
}

const xml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

function answerXml(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, { "content-type": "application/xml" });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

/** The unfinished uploads s3rver keeps for a bucket: id, key and when each began. */
async function unfinishedUploads(uploadsDir: string) {
  const ids = await readdir(uploadsDir).catch(() => [] as string[]);
  const uploads = [];
  for (const id of ids) {
    const keyFile = path.join(uploadsDir, id, "key");
    const [key, info] = await Promise.all([
      readFile(keyFile, "utf8").catch(() => null),
      stat(keyFile).catch(() => null),
    ]);
    if (key !== null && info) uploads.push({ id, key, initiated: info.mtime });
  }
  return uploads.sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id));
}

/** Answers ListMultipartUploads and AbortMultipartUpload (path-style); false for anything else. */
async function answerUploadCalls(directory: string, request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", "http://storage");
  // The SDK asks for a bucket's uploads at `/<bucket>/?uploads`.
  const [bucket, ...rest] = url.pathname.slice(1).split("/").map(decodeURIComponent);
  const keyParts = rest.length === 1 && rest[0] === "" ? [] : rest;
  if (!bucket) return false;
  const uploadsDir = path.join(directory, bucket, "._S3rver_uploads");
  if (request.method === "GET" && keyParts.length === 0 && url.searchParams.has("uploads")) {
    const prefix = url.searchParams.get("prefix") ?? "";
    const uploads = (await unfinishedUploads(uploadsDir)).filter((upload) => upload.key.startsWith(prefix));
    const items = uploads.map(
      (upload) =>
        `<Upload><Key>${xml(upload.key)}</Key><UploadId>${upload.id}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
    );
    answerXml(
      response,
      200,
      `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${items.join("")}</ListMultipartUploadsResult>`,
    );
    return true;
  }
  const uploadId = url.searchParams.get("uploadId");
  if (request.method === "DELETE" && keyParts.length > 0 && uploadId) {
    const found = (await unfinishedUploads(uploadsDir)).find(
      (upload) => upload.id === uploadId && upload.key === keyParts.join("/"),
    );
    if (!found) {
      answerXml(response, 404, `<Error><Code>NoSuchUpload</Code><Message>No such upload</Message></Error>`);
      return true;
    }
    await rm(path.join(uploadsDir, uploadId), { recursive: true, force: true });
    response.writeHead(204).end();
    return true;
  }
  return false;
}

/** Starts the server, makes the bucket when missing, and answers its address and the portal's variables. */
export async function startObjectStorage(options: ObjectStorageOptions): Promise<ObjectStorage> {
  const { directory, bucket = "portal", host = "127.0.0.1" } = options;
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3rver.configureBuckets();
  const s3 = s3rver.callback();
  const server: Server = createServer((request, response) => {
    answerUploadCalls(directory, request, response)
      .then((answered) => answered || s3(request, response))
      .catch((error: Error) =>
        answerXml(response, 500, `<Error><Code>InternalError</Code><Message>${xml(error.message)}</Message></Error>`),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${host}:${port}`;
  return {
    endpoint,
    bucket,
    port,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
