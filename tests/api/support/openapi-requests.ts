/**
 * Requests made from the served OpenAPI document, for the fuzz that walks every operation: path
 * parameters, query strings and bodies (JSON or multipart) drawn by fast-check from the schemas
 * the document states, mixed with hostile values (lone surrogates, wrong types) no column stores.
 */
import fc from "fast-check";
import { multipart } from "./multipart";

export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export const LONE_HIGH = "a\ud800b";
export const LONE_LOW = "\udc00";

/** Values of the wrong kind for any field, and text PostgreSQL's jsonb refuses. */
const hostile = fc.constantFrom<unknown>(LONE_HIGH, LONE_LOW, 42, -1, true, null, [], {}, Number.MAX_VALUE, "");

const text = fc.oneof(fc.string({ maxLength: 24 }), fc.string({ unit: "binary", maxLength: 24 }), hostile);

/** A value for `schema`: mostly of its type, sometimes of another (so refusals are reached too). */
export function arbitraryFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const choice = schema?.anyOf ?? schema?.oneOf;
  if (choice?.length) return fc.oneof(...choice.map((option) => arbitraryFor(option, depth)));
  if (schema?.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), hostile);
  if (depth > 3) return hostile;
  switch (schema?.type) {
    case "string":
      return schema.format === "uuid" ? fc.oneof(fc.uuid(), text) : text;
    case "integer":
      return fc.oneof(fc.integer(), hostile);
    case "number":
      return fc.oneof(fc.double({ noNaN: true }), hostile);
    case "boolean":
      return fc.oneof(fc.boolean(), hostile);
    case "array":
      return fc.oneof(fc.array(arbitraryFor(schema.items, depth + 1), { maxLength: 3 }), hostile);
    case "object": {
      const properties = Object.entries(schema.properties ?? {}).map(
        ([name, property]) => [name, arbitraryFor(property, depth + 1)] as const,
      );
      const record = fc.record(Object.fromEntries(properties), { requiredKeys: schema.required ?? [] });
      return fc.oneof({ weight: 3, arbitrary: record }, { weight: 1, arbitrary: hostile });
    }
    default:
      return fc.oneof(hostile, fc.jsonValue({ maxDepth: 2 }));
  }
}

/** A parameter's value as it travels in a path or query string. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was sent, for a failure's message. */
  shown: string;
}

/** The operations a request can be made for: every one but event streams, which never end. */
export function operationsOf(document: OpenApiDocument): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !operation.responses["200"]?.content?.["text/event-stream"])
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
}

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** Requests for one operation, drawn from what the document says of its parameters and body. */
export function requestsFor(path: string, method: string, operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const parameters = operation.parameters ?? [];
  const inPath = parameters.filter((parameter) => parameter.in === "path");
  const inQuery = parameters.filter((parameter) => parameter.in === "query");
  const pathValues = fc.tuple(
    ...inPath.map((parameter) => fc.oneof(fc.constant(MISSING_ID), arbitraryFor(parameter.schema)).map(asText)),
  );
  const queryValues = fc.record(
    Object.fromEntries(inQuery.map((parameter) => [parameter.name, arbitraryFor(parameter.schema).map(asText)])),
    { requiredKeys: [] },
  );
  const content = operation.requestBody?.content ?? {};
  const json = content["application/json"]?.schema;
  const form = content["multipart/form-data"]?.schema;
  const bodies: fc.Arbitrary<{ payload?: string | Buffer; headers: Record<string, string>; shown: string }>[] = [];
  if (json)
    bodies.push(
      arbitraryFor(json).map((value) => ({
        payload: JSON.stringify(value) ?? "null",
        headers: { "content-type": "application/json" },
        shown: JSON.stringify(value),
      })),
    );
  if (form) bodies.push(multipartOf(form));
  if (!bodies.length) bodies.push(fc.constant({ headers: {}, shown: "" }));
  return fc.tuple(pathValues, queryValues, fc.oneof(...bodies)).map(([values, query, body]) => {
    let url = `${path}`;
    inPath.forEach((parameter, i) => {
      // A lone surrogate cannot be percent-encoded; it travels as UTF-8 does, U+FFFD.
      const wellFormed = Buffer.from(values[i] as string, "utf8").toString("utf8");
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(wellFormed));
    });
    const search = new URLSearchParams(query as Record<string, string>).toString();
    if (search) url += `?${search}`;
    return { method, url, headers: body.headers, payload: body.payload, shown: `${method} ${url} ${body.shown}` };
  });
}

/** A multipart body: each binary property a small file of random bytes, every other a text field. */
function multipartOf(schema: Schema) {
  const entries = Object.entries(schema.properties ?? {});
  const files = entries.filter(([, property]) => property.format === "binary").map(([name]) => name);
  const fields = entries.filter(([, property]) => property.format !== "binary");
  return fc
    .tuple(
      fc.subarray(files),
      fc.uint8Array({ maxLength: 64 }),
      fc.record(Object.fromEntries(fields.map(([name, property]) => [name, arbitraryFor(property).map(asText)])), {
        requiredKeys: [],
      }),
    )
    .map(([sent, bytes, values]) => {
      const body = multipart(
        sent.map((name) => ({ name, filename: `${name}.bin`, content: bytes })),
        values as Record<string, string>,
      );
      return { payload: body.payload, headers: body.headers, shown: `multipart ${sent} ${JSON.stringify(values)}` };
    });
}
