/**
 * What a route reads or answers that is not JSON: a multipart upload, bytes (a file, a range of
 * one, an image, CSV) or an event stream. Those routes read their parts and send their bodies by
 * hand, so they have no zod schema to read; they declare it here instead, in their route config
 * (`config.media`), which the OpenAPI document is written from (server/http/openapi.ts) and which
 * the server holds the answers to outside production (`checkMedia`), so the two cannot drift.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { HttpError } from "../errors";

/** A multipart/form-data body: its file parts (name → what it is) and its text fields. */
export interface UploadDeclaration {
  files: Record<string, string>;
  /** The text fields, as the zod schema the route reads them with (server/http/multipart-fields.ts). */
  fields?: z.ZodType;
  /** The file parts that must be sent; every one unless said. */
  required?: readonly string[];
  /** The route takes a JSON body as well (its `schema.body`). */
  orJson?: boolean;
}

/** An answer of bytes: its media types, whether it serves `Range` (206), whether it is a download. */
export interface BytesDeclaration {
  types: readonly string[];
  ranges?: boolean;
  attachment?: boolean;
  /** The route answers JSON too, when the client asks for it (`Accept`). */
  orJson?: boolean;
}

export interface MediaDeclaration {
  upload?: UploadDeclaration;
  bytes?: BytesDeclaration;
  /** A Server-Sent Events stream. */
  eventStream?: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** What the route reads or answers that is not JSON; the OpenAPI document describes it from this. */
    media?: MediaDeclaration;
  }
}

export const OCTET_STREAM = ["application/octet-stream"] as const;

/** A download of stored bytes (a file, unless `types` say otherwise), whole or (`ranges`) one byte range of it. */
export const bytesAnswer = (options: Partial<BytesDeclaration> = {}): MediaDeclaration => ({
  bytes: { types: OCTET_STREAM, attachment: true, ...options },
});

/** An upload of the named file parts, with the form's text fields. */
export const multipartBody = (
  files: Record<string, string>,
  options: Omit<UploadDeclaration, "files"> = {},
): MediaDeclaration => ({ upload: { files, ...options } });

export const EVENT_STREAM: MediaDeclaration = { eventStream: true };

const mediaTypeOf = (header: unknown) =>
  String(Array.isArray(header) ? header[0] : (header ?? ""))
    .split(";")[0]
    .trim()
    .toLowerCase();

const mediaOf = (request: FastifyRequest): MediaDeclaration | undefined => request.routeOptions.config?.media;

/** Answers a route may send without declaring them: JSON, and the error shape of every route. */
const isJson = (type: string) => type === "" || type === "application/json";

/**
 * Outside production, an /api answer whose media type the route did not declare is a logged 500:
 * an API test that downloads then fails the day a route's answer and its published description
 * differ. (A route reading multipart without declaring it is refused in every mode, where the
 * upload is read: `declaredUpload`.)
 */
export function checkMedia(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (!request.url.startsWith("/api/v1/") || reply.statusCode >= 400) return payload;
    const type = mediaTypeOf(reply.getHeader("content-type"));
    if (isJson(type)) return payload;
    const media = mediaOf(request);
    if (media?.bytes?.types.includes(type) || (type === "text/event-stream" && media?.eventStream)) return payload;
    request.log.error(
      { route: request.routeOptions.url, type },
      "answered a media type its route does not declare (config.media)",
    );
    throw new HttpError(500, "Internal server error", "The answer is not one the API describes");
  });
}

/** The upload a route declared; a route reading multipart without declaring it is a bug, so a 500. */
export function declaredUpload(request: FastifyRequest): UploadDeclaration {
  const declared = mediaOf(request)?.upload;
  if (!declared) throw new Error(`${request.routeOptions.url} reads multipart but declares no config.media.upload`);
  return declared;
}
