/**
 * Receiving one uploaded file: @fastify/multipart truncates a
 * file at the size limit without an error and ignores extra files, so every
 * part is looked at, `truncated` is checked after the stream ends, and any
 * failure removes the partial temp file before answering.
 *
 * The file is streamed to `<dataDir>/tmp` while its SHA-256 is computed; the
 * caller checks it and hands it to the blob store, or lets it be removed.
 * A file that is only read and answered, never kept (an image to inspect or
 * patch), is received into memory instead (`withBufferedUpload`), through
 * the same parts() loop with @fastify/multipart's own `toBuffer()`: our own
 * whole-body parser was not twice as fast on a real upload (bench/multipart.ts
 * compares the two), so it went.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type {} from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { badRequest, HttpError } from "../errors";
import { hashingTap } from "../services/hashing";
import { tempDirOf } from "../services/temp-files";
import type { UploadedFile } from "../services/uploaded-file";
import { declaredUpload } from "./media";

export type { UploadedFile };

/** An uploaded file held in memory. */
export interface FormFile {
  field: string;
  filename: string;
  bytes: Uint8Array;
}

export interface Upload<F = UploadedFile> {
  file: F | null;
  fields: Record<string, string>;
}

type FilePart = {
  fieldname: string;
  filename: string;
  mimetype: string;
  file: NodeJS.ReadableStream & { truncated: boolean };
  /** The whole file; with throwFileSizeLimit off, cut at the limit (and `file.truncated` set). */
  toBuffer(): Promise<Buffer>;
};

const MAX_FIELDS = 32;
const MAX_FIELD_BYTES = 64 * 1024;

/** `field` names the part when a form carries several files. */
export const tooLarge = (limit: number, field?: string) =>
  new HttpError(
    413,
    "Payload too large",
    `The ${field ? `"${field}" ` : ""}file is larger than the ${limit} bytes allowed`,
    { limitBytes: limit, ...(field && { field }) },
  );

const invalid = (description: string) => badRequest("Invalid multipart body", description);

/** The boundary of a multipart/form-data content type (RFC 2046: 1 to 70 characters, maybe quoted). */
export function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]*)"|([^\s;]*))/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw invalid("the content type names no boundary");
  if (boundary.length > 70) throw invalid(`the boundary has ${boundary.length} characters; RFC 2046 allows at most 70`);
  return boundary;
}

function requireMultipart(request: FastifyRequest): void {
  declaredUpload(request);
  if (!request.isMultipart())
    throw new HttpError(415, "Unsupported media type", "Send the file as multipart/form-data");
}

const NUL = "\u0000";

/** A field or file name holding a NUL character, which no column can store: a 400 naming it. */
function refuseNul(upload: Upload<unknown>): void {
  for (const [name, value] of Object.entries(upload.fields)) {
    if (name.includes(NUL) || value.includes(NUL))
      throw badRequest(
        "Invalid form field",
        `Field "${name.replaceAll(NUL, "\\0")}" must not contain a NUL character`,
        [{ path: name, message: "must not contain a NUL character" }],
      );
  }
  const file = upload.file as { field: string; filename: string } | null;
  if (file && (file.filename.includes(NUL) || file.field.includes(NUL))) {
    throw badRequest("Invalid form field", "The file's name must not contain a NUL character", [
      { path: file.field, message: "the file name must not contain a NUL character" },
    ]);
  }
}

/**
 * busboy's refusals of a malformed body are plain errors known by their message (a missing or
 * wrong boundary, a body cut short); they are the client's fault, so a 400 naming what is wrong,
 * never a 500. Anything else (a full disk) is left as it is.
 */
function malformedMultipart(error: unknown, sawPart: boolean): HttpError | null {
  if (!(error instanceof Error) || error instanceof HttpError || "code" in error || "statusCode" in error) return null;
  if (/boundary not found/i.test(error.message)) return invalid("the content type names no boundary");
  if (/unexpected end of multipart data/i.test(error.message)) {
    return invalid(
      sawPart
        ? "the body ends before its closing boundary"
        : "the body has no complete part with the boundary its content type names",
    );
  }
  if (/needle/i.test(error.message)) return invalid("the boundary is not one busboy can search for");
  return null;
}

/** The refusal of a file over the limit; the default names the field when a form carries several files. */
export type TooLarge = (limit: number, part: { field: string; filename: string }) => HttpError;

/** Reads the form: fields as strings, up to `maxFiles` files handed to `keep` while they stream. */
async function receive<F extends { field: string; filename: string }>(
  request: FastifyRequest,
  limit: number,
  keep: (part: FilePart) => Promise<F>,
  maxFiles = 1,
  refuseLarge: TooLarge = (size, part) => tooLarge(size, maxFiles > 1 ? part.field : undefined),
): Promise<{ files: F[]; fields: Record<string, string> }> {
  requireMultipart(request);
  // Refused before busboy sees it, naming what is wrong: no boundary, or one past RFC 2046's 70 characters.
  boundaryOf(request.headers["content-type"]);
  const upload: { files: F[]; fields: Record<string, string> } = { files: [], fields: {} };
  // One file more than allowed, so that an extra file reaches us and is refused instead of being dropped silently.
  // throwFileSizeLimit is honoured by parts() at run time, though its type leaves it out.
  const options = {
    limits: { fileSize: limit, files: maxFiles + 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
    throwFileSizeLimit: false,
  };
  let sawPart = false;
  try {
    const parts = request.parts(options as Parameters<typeof request.parts>[0]);
    for await (const part of parts) {
      sawPart = true;
      // busboy hands over a part whose Content-Disposition names nothing with an undefined name.
      if (typeof part.fieldname !== "string") {
        if (part.type === "file") part.file.resume();
        throw invalid("a part's Content-Disposition has no name");
      }
      if (part.type === "field") {
        if (typeof part.value !== "string" || part.valueTruncated)
          throw badRequest("Invalid form field", `Field "${part.fieldname}" is too long`);
        upload.fields[part.fieldname] = part.value;
        continue;
      }
      if (upload.files.length >= maxFiles) {
        part.file.resume();
        throw maxFiles === 1
          ? badRequest("One file only", "Send exactly one file per upload")
          : badRequest("Too many files", `Send at most ${maxFiles} files`, [
              { path: part.fieldname, message: `at most ${maxFiles} files in all` },
            ]);
      }
      const kept = await keep(part);
      if (part.file.truncated) throw refuseLarge(limit, { field: part.fieldname, filename: part.filename });
      upload.files.push(kept);
    }
  } catch (error) {
    throw malformedMultipart(error, sawPart) ?? error;
  }
  for (const file of upload.files) refuseNul({ fields: upload.fields, file });
  if (upload.files.length === 0) refuseNul({ fields: upload.fields, file: null });
  return upload;
}

/** A temp file being written, and its stream: removed only once the stream has closed. */
interface TempFile {
  path: string;
  stream?: WriteStream;
}

function toTempFile(tempDir: string, temps: TempFile[]) {
  return async (part: FilePart): Promise<UploadedFile> => {
    const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString("hex")}`);
    const temp: TempFile = { path: tempPath };
    temps.push(temp);
    const { tap, result } = hashingTap();
    temp.stream = createWriteStream(tempPath);
    await pipeline(part.file, tap, temp.stream);
    return {
      field: part.fieldname,
      filename: part.filename,
      mimetype: part.mimetype,
      path: tempPath,
      ...result(),
    };
  };
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
  // A process killed meanwhile leaves its temp files; server/services/temp-files.ts removes them.
  const tempDir = tempDirOf(ctx.config.dataDir);
  await mkdir(tempDir, { recursive: true });
  const temps: TempFile[] = [];
  try {
    const { files, fields } = await receive(
      request,
      options.limitBytes ?? ctx.config.uploadLimitBytes,
      toTempFile(tempDir, temps),
    );
    return await handle({ file: files[0] ?? null, fields });
  } finally {
    await removeTemps(temps);
  }
}

/**
 * A body that ends early fails the pipeline before its file stream has opened the file; the
 * stream still creates it, then closes. Removing it before that close would leave it behind.
 */
async function removeTemps(temps: TempFile[]): Promise<void> {
  await Promise.all(
    temps.map(async ({ path: tempPath, stream }) => {
      if (stream && !stream.closed) await new Promise<void>((resolve) => stream.once("close", () => resolve()));
      await rm(tempPath, { force: true });
    }),
  );
}

/**
 * Like withUpload for a form with several files (up to `maxFiles`, each within `limitBytes`):
 * the handler gets them all; the ones it did not adopt are removed whatever happens.
 */
export async function withUploads<T>(
  request: FastifyRequest,
  ctx: AppContext,
  handle: (upload: { files: UploadedFile[]; fields: Record<string, string> }) => Promise<T>,
  options: { limitBytes: number; maxFiles: number },
): Promise<T> {
  const tempDir = tempDirOf(ctx.config.dataDir);
  await mkdir(tempDir, { recursive: true });
  const temps: TempFile[] = [];
  try {
    return await handle(await receive(request, options.limitBytes, toTempFile(tempDir, temps), options.maxFiles));
  } finally {
    await removeTemps(temps);
  }
}

/** The file read into one buffer: busboy's chunks joined by @fastify/multipart's toBuffer(). */
async function toMemory(part: FilePart): Promise<FormFile> {
  return { field: part.fieldname, filename: part.filename, bytes: await part.toBuffer() };
}

/**
 * The upload held in memory, for files that are answered and never stored;
 * same limits and refusals as withUpload (past the field count too: a 400,
 * as a field over its length is), and nothing is written to disk.
 */
export async function withBufferedUpload<T>(
  request: FastifyRequest,
  ctx: AppContext,
  handle: (upload: Upload<FormFile>) => Promise<T>,
): Promise<T> {
  const upload = await receiveInMemory(request, { limitBytes: ctx.config.uploadLimitBytes, maxFiles: 1 });
  return handle({ file: upload.files[0] ?? null, fields: upload.fields });
}

/** Like withBufferedUpload for a form with several files (up to `maxFiles`, each within `limitBytes`). */
export async function withBufferedUploads<T>(
  request: FastifyRequest,
  handle: (upload: { files: FormFile[]; fields: Record<string, string> }) => Promise<T>,
  options: { limitBytes: number; maxFiles: number; tooLarge?: TooLarge },
): Promise<T> {
  return handle(await receiveInMemory(request, options));
}

async function receiveInMemory(
  request: FastifyRequest,
  options: { limitBytes: number; maxFiles: number; tooLarge?: TooLarge },
): Promise<{ files: FormFile[]; fields: Record<string, string> }> {
  let upload: { files: FormFile[]; fields: Record<string, string> };
  try {
    upload = await receive(request, options.limitBytes, toMemory, options.maxFiles, options.tooLarge);
  } catch (error) {
    if ((error as { code?: unknown }).code === "FST_FIELDS_LIMIT")
      throw badRequest("Invalid form field", `The form has more than ${MAX_FIELDS} fields`);
    throw error;
  }
  // An empty body is an empty form to busboy; nothing to inspect or patch is a malformed body here.
  if (upload.files.length === 0 && Object.keys(upload.fields).length === 0)
    throw invalid("the body has no part with the boundary its content type names");
  return upload;
}

/** The upload's file, or a 400 when the form carried none. */
export function requireFile<F>(upload: Upload<F>, field = "file"): F {
  if (!upload.file) throw badRequest("No file", `Attach the file as the "${field}" field`);
  return upload.file;
}
