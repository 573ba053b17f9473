/** Sending a stored file whole or one byte range of it (`Range: bytes=a-b`). */
import { createReadStream } from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors";

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

/** The file, or the range the request asks for (206), with `accept-ranges`; 416 for a range past the end. */
export async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, size: number, type: string) {
  reply.header("accept-ranges", "bytes");
  const range = byteRange(request.headers.range, size);
  if (range === "unsatisfiable") {
    reply.header("content-range", `bytes */${size}`);
    throw new HttpError(416, "Range not satisfiable", `The file has ${size} bytes`);
  }
  reply.header("content-type", type);
  if (!range) return reply.header("content-length", size).send(createReadStream(file));
  return reply
    .status(206)
    .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
    .header("content-length", range.end - range.start + 1)
    .send(createReadStream(file, { start: range.start, end: range.end }));
}
