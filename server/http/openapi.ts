/**
 * The API's published contract: an OpenAPI 3 document made by @fastify/swagger from the routes as
 * they are registered, each route's zod schemas turned into JSON Schema by zod itself, served at
 * GET /api/v1/openapi.json, with a reference page at /api/reference (@fastify/swagger-ui, its
 * assets served from the package, no CDN). Registered before any route, so every route is seen.
 */
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, FastifySchema } from "fastify";
import { z } from "zod";
import { apiErrorSchema } from "../../contracts/errors";
import { DEFAULT_PAGE_SIZE, filterOperators, MAX_PAGE_SIZE } from "../../contracts/list-query";
import type { MediaDeclaration } from "./media";

export const OPENAPI_PATH = "/api/v1/openapi.json";
export const REFERENCE_PATH = "/api/reference";

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as the JSON Schema a client reads: what it sends and what it is sent is the
 * schema's input side (the server parses requests, and checks answers, from that side). Types JSON
 * cannot state (a date object, a custom check) become schemas that accept anything rather than
 * failing the whole document.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as JsonSchema;
}

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;
const ERROR = jsonSchemaOf(apiErrorSchema);

/** What a list route reads from its query string (server/http/list.ts): paging, search, sorting, filters. */
interface ListAllowed {
  allowed: { readonly sort: readonly string[]; readonly filter: readonly string[] };
}

/** A list route's query string as JSON Schema: the fields it may sort and filter by named. */
export function listQuerySchema({ allowed }: ListAllowed): JsonSchema {
  const operators = filterOperators.join(", ");
  return {
    type: "object",
    properties: {
      page: { type: "integer", minimum: 1, default: 1 },
      pageSize: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
      q: { type: "string", description: "Text to search for" },
      sort: {
        type: "string",
        description: `Comma-separated fields, "-" before a field for descending; sortable: ${allowed.sort.join(", ") || "none"}`,
      },
      after: { type: "string", description: "A cursor from an answer's nextCursor" },
      before: { type: "string", description: "A cursor from an answer's prevCursor" },
      ...Object.fromEntries(
        allowed.filter.map((field) => [
          `${field}[eq]`,
          { type: "string", description: `A filter on ${field}; any of ${operators} in place of eq` },
        ]),
      ),
    },
  };
}

const BINARY = { type: "string", format: "binary" };

/** A multipart body as JSON Schema: each file part `format: binary`, each text field as its schema says. */
function multipartSchema({ files, fields, required }: NonNullable<MediaDeclaration["upload"]>): JsonSchema {
  const text = fields ? jsonSchemaOf(fields) : {};
  const fieldProperties = (text.properties ?? {}) as Record<string, unknown>;
  return {
    type: "object",
    properties: {
      ...Object.fromEntries(Object.entries(files).map(([name, description]) => [name, { ...BINARY, description }])),
      ...fieldProperties,
    },
    required: [...(required ?? Object.keys(files)), ...((text.required as string[] | undefined) ?? [])],
  };
}

const DISPOSITION = {
  "Content-Disposition": { description: "attachment, with the file's name", schema: { type: "string" } },
};

/** A byte answer's 200 (and 206 with Content-Range when it serves ranges), in its media types. */
function bytesAnswers(bytes: NonNullable<MediaDeclaration["bytes"]>, json: unknown): Record<string, unknown> {
  const content = Object.fromEntries(bytes.types.map((type) => [type, { schema: BINARY }]));
  const headers = bytes.attachment ? DISPOSITION : {};
  const whole = {
    description: "The bytes",
    content: { ...content, ...(bytes.orJson && json ? { "application/json": { schema: json } } : {}) },
    headers: {
      ...headers,
      ...(bytes.ranges && { "Accept-Ranges": { schema: { type: "string", enum: ["bytes"] } } }),
    },
  };
  if (!bytes.ranges) return { 200: whole };
  const range = {
    description: "The one byte range the Range header asked for",
    content,
    headers: { ...headers, "Content-Range": { description: "bytes start-end/size", schema: { type: "string" } } },
  };
  return { 200: whole, 206: range };
}

/** The non-JSON parts a route declared (server/http/media.ts), written onto its transformed schema. */
function withMedia(out: Record<string, unknown>, media: MediaDeclaration | undefined): void {
  if (!media) return;
  const answers = out.response as Record<string, unknown>;
  if (media.bytes) Object.assign(answers, bytesAnswers(media.bytes, answers[200]));
  if (media.eventStream)
    answers[200] = {
      description: "Server-Sent Events",
      content: { "text/event-stream": { schema: { type: "string" } } },
    };
  if (media.upload) {
    const json = media.upload.orJson && out.body ? { "application/json": { schema: out.body } } : {};
    // A body stated with its media types as @fastify/swagger takes it (schema.body.content).
    out.body = { content: { "multipart/form-data": { schema: multipartSchema(media.upload) }, ...json } };
  }
}

/**
 * A route's schema with its zod parts as JSON Schema, every refusal in the one error shape, and no
 * token asked of a public route.
 */
function transformSchema(
  schema: FastifySchema | undefined,
  config: { public?: boolean; list?: ListAllowed; media?: MediaDeclaration } | undefined,
): FastifySchema {
  const { params, querystring, body, headers, response, ...rest } = schema ?? {};
  const out: Record<string, unknown> = { ...rest };
  if (config?.list && querystring === undefined) out.querystring = listQuerySchema(config.list);
  for (const [part, value] of Object.entries({ params, querystring, body, headers })) {
    if (value !== undefined) out[part] = isZod(value) ? jsonSchemaOf(value) : value;
  }
  const answers: Record<string, unknown> = {};
  for (const [status, value] of Object.entries((response ?? {}) as Record<string, unknown>)) {
    answers[status] = isZod(value) ? jsonSchemaOf(value) : value;
  }
  answers["4xx"] ??= { description: "Refused: the error shape names what is wrong", ...ERROR };
  answers["5xx"] ??= { description: "The server could not answer", ...ERROR };
  out.response = answers;
  withMedia(out, config?.media);
  if (config?.public) out.security = [];
  return out as FastifySchema;
}

/** The resource a path belongs to, its first segment after the version (`tune-files`), as the reference groups it. */
export const resourceOf = (url: string): string => url.replace(/^\/api(\/v1)?\//, "").split("/")[0] || "session";

export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Tuning portal API",
        version,
        description:
          "Every answer that is not a success has the error shape: statusCode, message, description, data (for a 400, the fields that failed).",
      },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A Firebase ID token" } },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }) => ({
      schema: {
        tags: [resourceOf(url)],
        ...transformSchema(schema, route?.config as Parameters<typeof transformSchema>[1]),
      },
      url,
    }),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: REFERENCE_PATH,
    // Tags closed: the document has a few hundred operations, and a tag opens on a click.
    uiConfig: { deepLinking: true, docExpansion: "none" },
  });
}
