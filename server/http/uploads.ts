/**
 * Receiving one uploaded file (traps.md #2): @fastify/multipart truncates a
 * file at the size limit without an error and ignores extra files, so every
 * part is looked at, `truncated` is checked after the stream ends, and any
 * failure removes the partial temp file before answering.
 *
 * The file is streamed to `<dataDir>/tmp` while its SHA-256 is computed; the
 * caller checks it and hands it to the blob store, or lets it be removed.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type {} from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { HttpError, badRequest } from "../errors";

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  /** Temp file; removed after the handler unless adopted into the blob store. */
  path: string;
  size: number;
  sha256: string;
}

export interface Upload {
  file: UploadedFile | null;
  fields: Record<string, string>;
}

const MAX_FIELDS = 32;
const MAX_FIELD_BYTES = 64 * 1024;

const tooLarge = (limit: number) =>
  new HttpError(413, "Payload too large", `The file is larger than the ${limit} bytes allowed`, { limitBytes: limit });

async function receive(request: FastifyRequest, tempDir: string, limit: number, temps: string[]): Promise<Upload> {
  if (!request.isMultipart()) throw new HttpError(415, "Unsupported media type", "Send the file as multipart/form-data");
  const upload: Upload = { file: null, fields: {} };
  // files: 2 so that a second file reaches us and is refused, instead of being dropped silently.
  // throwFileSizeLimit is honoured by parts() at run time, though its type leaves it out.
  const options = { limits: { fileSize: limit, files: 2, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES }, throwFileSizeLimit: false };
  const parts = request.parts(options as Parameters<typeof request.parts>[0]);
  for await (const part of parts) {
    if (part.type === "field") {
      if (typeof part.value !== "string" || part.valueTruncated) throw badRequest("Invalid form field", `Field "${part.fieldname}" is too long`);
      upload.fields[part.fieldname] = part.value;
      continue;
    }
    if (upload.file) {
      part.file.resume();
      throw badRequest("One file only", "Send exactly one file per upload");
    }
    const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString("hex")}`);
    temps.push(tempPath);
    const hash = createHash("sha256");
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(part.file, tap, createWriteStream(tempPath));
    if (part.file.truncated) throw tooLarge(limit);
    upload.file = { field: part.fieldname, filename: part.filename, mimetype: part.mimetype, path: tempPath, size, sha256: hash.digest("hex") };
  }
  return upload;
}

/**
 * Runs `handle` with the received upload; whatever happens, temp files that
 * `handle` did not move away are removed, so a refused upload leaves nothing.
 */
export async function withUpload<T>(
  request: FastifyRequest,
  ctx: AppContext,
  handle: (upload: Upload) => Promise<T>,
  options: { limitBytes?: number } = {},
): Promise<T> {
  const tempDir = path.join(ctx.config.dataDir, "tmp");
  await mkdir(tempDir, { recursive: true });
  const temps: string[] = [];
  try {
    return await handle(await receive(request, tempDir, options.limitBytes ?? ctx.config.uploadLimitBytes, temps));
  } finally {
    await Promise.all(temps.map((temp) => rm(temp, { force: true })));
  }
}

/** The upload's file, or a 400 when the form carried none. */
export function requireFile(upload: Upload, field = "file"): UploadedFile {
  if (!upload.file) throw badRequest("No file", `Attach the file as the "${field}" field`);
  return upload.file;
}
