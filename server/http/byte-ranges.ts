/** Sending a stored blob whole or one byte range of it (`Range: bytes=a-b`), from either blob store. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors";
import type { BlobStore } from "../services/blob-store";

/** Parses `Range: bytes=a-b` (one range); null when absent, "unsatisfiable" for a range past the end. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answer the whole file, which RFC 9110 allows.
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/** A stored blob as its record knows it: hash and size; its type (bytes unless said) and, for a download, its file name. */
export interface SentBlob {
  sha256: string;
  size: number;
  type?: string;
  filename?: string;
}

/** The blob, or the range the request asks for (206), with `accept-ranges`; 416 for a range past the end. */
export async function sendBlob(request: FastifyRequest, reply: FastifyReply, store: BlobStore, blob: SentBlob) {
  const { size } = blob;
  const range = byteRange(request.headers.range, size);
  if (range === "unsatisfiable") {
    reply.header("accept-ranges", "bytes").header("content-range", `bytes */${size}`);
    throw new HttpError(416, "Range not satisfiable", `The file has ${size} bytes`);
  }
  // Asked for before any header is set, so a storage that does not answer is a plain error answer.
  const body = await store.stream(blob.sha256, range ?? undefined);
  reply.header("accept-ranges", "bytes").header("content-type", blob.type ?? "application/octet-stream");
  if (blob.filename)
    reply.header("content-disposition", `attachment; filename="${blob.filename.replace(/["\\\r\n]/g, "_")}"`);
  if (!range) return reply.header("content-length", size).send(body);
  return reply
    .status(206)
    .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
    .header("content-length", range.end - range.start + 1)
    .send(body);
}
