/**
 * The server's former multipart reader, kept as bench/multipart.ts's baseline
 * (replaced by @fastify/multipart's own buffering, which it did not beat
 * twice over). A multipart/form-data body read whole into one buffer
 * (from a pool) and parsed there; the file comes out as a view of that
 * buffer. The refusals are those of the streamed path: exactly one file, 413
 * past the limit, field count and length capped; and a body that is not
 * well-formed is a 400 naming what is wrong, never a partial read.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest } from "../../server/errors";
import { tooLarge } from "../../server/http/uploads";

export interface FormLimits {
  fileBytes: number;
  fields: number;
  fieldBytes: number;
}

export interface FormFile {
  field: string;
  filename: string;
  mimetype: string;
  bytes: Uint8Array;
}

export interface ParsedForm {
  file: FormFile | null;
  fields: Record<string, string>;
}

export class FormTooLargeError extends Error {}

const MAX_HEADER_BYTES = 8 * 1024;
/** Room for part headers and boundaries around the file and fields. */
const ENVELOPE_BYTES = 64 * 1024;

const invalid = (message: string) => badRequest("Invalid multipart body", message);

/** The boundary of a multipart/form-data content type (RFC 2046: 1 to 70 characters, maybe quoted). */
export function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]*)"|([^\s;]*))/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw invalid("the content type names no boundary");
  if (boundary.length > 70) throw invalid(`the boundary has ${boundary.length} characters; RFC 2046 allows at most 70`);
  return boundary;
}

/** The largest body a form within the limits can have. */
export const maxFormBytes = (limits: FormLimits) =>
  limits.fileBytes + limits.fields * (limits.fieldBytes + MAX_HEADER_BYTES) + ENVELOPE_BYTES;

const MiB = 1024 * 1024;

/**
 * Bodies kept for the next upload of their size (rounded up to a MiB): a
 * fresh 8 MiB buffer per request made V8 run a full collection every few
 * requests, for the external memory it accounts. A buffer comes back only
 * when nothing can still read or write it (withOurBufferedUpload).
 */
export class BodyPool {
  private readonly idle = new Map<number, Buffer[]>();
  private idleBytes = 0;

  constructor(private readonly maxIdleBytes: number) {}

  take(size: number): Buffer {
    if (size < MiB) return Buffer.allocUnsafeSlow(size);
    const capacity = Math.ceil(size / MiB) * MiB;
    const kept = this.idle.get(capacity)?.pop();
    if (kept) this.idleBytes -= capacity;
    // Not from Buffer's own pool: the caller may write into the file in place.
    return (kept ?? Buffer.allocUnsafeSlow(capacity)).subarray(0, size);
  }

  give(body: Buffer): void {
    const whole = Buffer.from(body.buffer, 0, body.buffer.byteLength);
    if (whole.length < MiB || whole.length % MiB !== 0 || this.idleBytes + whole.length > this.maxIdleBytes) return;
    const idle = this.idle.get(whole.length) ?? [];
    idle.push(whole);
    this.idle.set(whole.length, idle);
    this.idleBytes += whole.length;
  }
}

/**
 * Reads the request's body into one buffer, sized from Content-Length when
 * it is given (and then taken from `pool`). More than `maxBytes` is refused
 * as soon as it is known, and the rest of the body is drained (not the
 * socket destroyed) so the client reads the 413.
 */
export function readBody(stream: IncomingMessage, maxBytes: number, pool?: BodyPool): Promise<Buffer> {
  const declared = Number(stream.headers["content-length"]);
  const sized = stream.headers["content-length"] !== undefined && Number.isSafeInteger(declared) && declared >= 0;
  return new Promise((resolve, reject) => {
    const stop = (error: Error) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.resume();
      reject(error);
    };
    if (sized && declared > maxBytes) return stop(new FormTooLargeError());
    let body = sized
      ? (pool?.take(declared) ?? Buffer.allocUnsafeSlow(declared))
      : Buffer.allocUnsafeSlow(Math.min(maxBytes, 64 * 1024));
    let length = 0;
    function onData(chunk: Buffer) {
      if (length + chunk.length > body.length) {
        if (sized) return stop(invalid(`the body is longer than its Content-Length of ${declared} bytes`));
        if (length + chunk.length > maxBytes) return stop(new FormTooLargeError());
        const grown = Buffer.allocUnsafeSlow(Math.min(maxBytes, Math.max(body.length * 2, length + chunk.length)));
        body.copy(grown, 0, 0, length);
        body = grown;
      }
      chunk.copy(body, length);
      length += chunk.length;
    }
    function onEnd() {
      stream.off("error", reject);
      if (sized && length < declared) reject(invalid(`the body ended after ${length} of its ${declared} bytes`));
      else resolve(body.subarray(0, length));
    }
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", reject);
    // A client that goes away mid-body: no end, maybe no error either.
    stream.once("close", () => reject(invalid(`the upload was cut off after ${length} bytes`)));
  });
}

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");

/** One parameter of a Content-Disposition value: quoted (with backslash escapes) or a token. */
function parameter(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(value);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2];
}

function partHeaders(block: string): { name: string; filename?: string; mimetype?: string } {
  let disposition: string | undefined;
  let mimetype: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw invalid(`a part has a malformed header line "${line.slice(0, 80)}"`);
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") disposition = value;
    else if (key === "content-type") mimetype = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition))
    throw invalid("a part has no Content-Disposition: form-data header");
  const name = parameter(disposition, "name");
  if (name === undefined) throw invalid("a part's Content-Disposition has no name");
  return { name, filename: parameter(disposition, "filename"), mimetype };
}

/**
 * The file's bytes moved back over its own part headers (already read) to
 * start on an 8-byte boundary: the checksum kernels read an image by words,
 * and would otherwise copy a misaligned view of 8 MiB into a new buffer.
 */
function aligned(body: Buffer, start: number, size: number): Uint8Array {
  const offset = body.byteOffset + start;
  const to = offset - (offset % 8);
  if (to !== offset) new Uint8Array(body.buffer).copyWithin(to, offset, offset + size);
  return new Uint8Array(body.buffer, to, size);
}

/** Parses a whole multipart/form-data body (RFC 7578); the file is a view of `body`. */
export function parseForm(body: Buffer, boundary: string, limits: FormLimits): ParsedForm {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const form: ParsedForm = { file: null, fields: {} };
  let fieldCount = 0;
  // The first delimiter may open the body, without the line break before it.
  let at = body.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2))
    ? delimiter.length - 2
    : body.indexOf(delimiter);
  if (at < 0) throw invalid("the body has no part with the boundary its content type names");
  if (at !== delimiter.length - 2) at += delimiter.length;
  for (;;) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return form;
    // Transport padding, then the line break that ends the delimiter line.
    while (body[at] === 0x20 || body[at] === 0x09) at++;
    if (body.indexOf(CRLF, at) !== at) throw invalid("the body ends before its closing boundary");
    const headersStart = at + 2;
    const headersEnd = body.indexOf(HEADERS_END, headersStart);
    if (headersEnd < 0 || headersEnd - headersStart > MAX_HEADER_BYTES) throw invalid("a part's headers do not end");
    const headers = partHeaders(body.toString("utf8", headersStart, headersEnd));
    const contentStart = headersEnd + HEADERS_END.length;
    const contentEnd = body.indexOf(delimiter, contentStart);
    if (contentEnd < 0) throw invalid("the body ends before its closing boundary");
    const size = contentEnd - contentStart;
    if (headers.filename !== undefined) {
      if (form.file) throw badRequest("One file only", "Send exactly one file per upload");
      if (size > limits.fileBytes) throw new FormTooLargeError();
      form.file = {
        field: headers.name,
        filename: headers.filename,
        mimetype: headers.mimetype ?? "application/octet-stream",
        bytes: aligned(body, contentStart, size),
      };
    } else {
      if (++fieldCount > limits.fields)
        throw badRequest("Invalid form field", `The form has more than ${limits.fields} fields`);
      if (size > limits.fieldBytes) throw badRequest("Invalid form field", `Field "${headers.name}" is too long`);
      form.fields[headers.name] = body.toString("utf8", contentStart, contentEnd);
    }
    at = contentEnd + delimiter.length;
  }
}

const bodies = new BodyPool(32 * 1024 * 1024);

/**
 * What the server's withBufferedUpload was before @fastify/multipart's buffering: the body into a
 * pooled buffer, parsed there, the buffer back to the pool once the handler
 * is done and the response closed.
 */
export async function withOurBufferedUpload<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: FormLimits,
  handle: (upload: ParsedForm) => Promise<T>,
): Promise<T> {
  const boundary = boundaryOf(request.headers["content-type"]);
  let body: Buffer;
  let form: ParsedForm;
  try {
    body = await readBody(request.raw, maxFormBytes(limits), bodies);
    form = parseForm(body, boundary, limits);
  } catch (error) {
    throw error instanceof FormTooLargeError ? tooLarge(limits.fileBytes) : error;
  }
  const done = { handler: false, response: false };
  const release = () => done.handler && done.response && bodies.give(body);
  reply.raw.once("close", () => {
    done.response = true;
    release();
  });
  try {
    return await handle(form);
  } finally {
    done.handler = true;
    release();
  }
}
