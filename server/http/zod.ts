import type { FastifyInstance, FastifyTypeProvider } from "fastify";
import type { z } from "zod";
import { fieldIssues, RequestValidationError } from "../errors";
import type { MediaDeclaration } from "./media";

/** Lets route handlers see the parsed zod output types of their params, query and body. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends z.ZodType ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends z.ZodType ? z.input<this["schema"]> : unknown;
}

const NUL = "\u0000";
/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a text must not hold, with the message its 400 gives. */
const UNSTORABLE: ReadonlyArray<[(text: string) => boolean, string]> = [
  [(text) => text.includes(NUL), "must not contain a NUL character"],
  [(text) => LONE_SURROGATE.test(text), "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)"],
];

const unstorable = (text: string) => UNSTORABLE.find(([holds]) => holds(text))?.[1] ?? null;

/**
 * The first string (or key) of parsed JSON that no text or jsonb column can store, as a dotted
 * path and why; null when there is none. Walked with a stack, not recursion, so a deeply nested
 * body cannot overflow it.
 */
export function unstorableText(value: unknown): { path: string; message: string } | null {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === "string") {
      const message = unstorable(current);
      if (message) return { path, message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
    } else if (
      current !== null &&
      typeof current === "object" &&
      !Buffer.isBuffer(current) &&
      !ArrayBuffer.isView(current)
    ) {
      for (const [key, item] of Object.entries(current)) {
        const at = path ? `${path}.${key}` : key;
        const message = unstorable(key);
        if (message) return { path: at, message };
        stack.push([item, at]);
      }
    }
  }
  return null;
}

/** Where a NUL character is in parsed JSON, as a dotted path; null when there is none. */
export function nulPath(value: unknown): string | null {
  const found = unstorableText(value);
  return found?.message === UNSTORABLE[0][1] ? found.path : null;
}

/**
 * Every route's query, parameters and JSON body are refused with a 400 naming the field when a
 * string holds a NUL character or a lone UTF-16 surrogate: PostgreSQL's text cannot store the
 * first and jsonb refuses both (the query would fail with a 500), and no field of ours has a use
 * for either. One check of every request before validation, rather than a refinement on each
 * contract string: it covers routes without a zod schema (a body checked by hand, a list query
 * read from the URL), free-form JSON (`appSettings`) and keys, and a new field the day it is added.
 */
function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    for (const [part, value] of [
      ["querystring", request.query],
      ["params", request.params],
      ["body", request.body],
    ] as const) {
      const found = unstorableText(value);
      if (found) throw new RequestValidationError(part, [found]);
    }
  });
}

/** A handler answered a shape its route's response schema does not allow (checked outside production). */
export class ResponseContractError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly answeredStatus: number,
    readonly issues: Array<{ path: string; message: string }>,
  ) {
    super(
      `${method} ${url} answered ${answeredStatus} with a body its response schema refuses: ${issues.map((i) => `${i.path || "(body)"}: ${i.message}`).join("; ")}`,
    );
    this.name = "ResponseContractError";
  }
}

/**
 * How a route's JSON answer is serialized when it declares a response schema for its status code
 * (Fastify picks the schema by status code, so an error body, 4xx or 5xx, is never checked against
 * the 200 schema; routes sending streams or buffers declare none).
 *
 * What is sent is always `JSON.stringify` of what the handler answered, never the schema's parse
 * output: zod's parse drops unknown keys and applies transforms and defaults, so sending it would
 * let a schema silently change the answer. With `check` (every mode but production) the answer is
 * first checked with `safeParse`, and a mismatch throws: the request fails with a logged 500, so an
 * API test catches a handler drifting from its contract. In production the check is skipped: a
 * drift must not turn a usable answer into an outage, and it costs a walk over every answer.
 */
export function responseSerializer(
  schema: unknown,
  check: boolean,
  where: { method: string; url: string; httpStatus?: string },
) {
  const zodSchema = schema as z.ZodType;
  if (!check || typeof zodSchema?.safeParse !== "function") return (data: unknown) => JSON.stringify(data);
  return (data: unknown) => {
    const result = zodSchema.safeParse(data);
    if (!result.success)
      throw new ResponseContractError(where.method, where.url, Number(where.httpStatus), fieldIssues(result.error));
    return JSON.stringify(data);
  };
}

/** A route as registered: its method, its path and, when it declares one, its body schema. */
export interface DeclaredRoute {
  method: string;
  url: string;
  body?: z.ZodType;
  /** What it reads or answers that is not JSON (server/http/media.ts). */
  media?: MediaDeclaration;
}

const declaredOf = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route `app` declared, read back by tests so a new route is covered the day it is added. */
export const declaredRoutes = (app: FastifyInstance): readonly DeclaredRoute[] => declaredOf.get(app) ?? [];

export function installZodValidation(app: FastifyInstance, options: { checkResponses: boolean }): void {
  refuseUnstorableText(app);
  const declared: DeclaredRoute[] = [];
  declaredOf.set(app, declared);
  app.addHook("onRoute", (route) => {
    const body = (route.schema as { body?: z.ZodType } | undefined)?.body;
    const media = route.config?.media;
    for (const method of [route.method].flat())
      declared.push({ method, url: route.url, ...(body && { body }), ...(media && { media }) });
  });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as z.ZodType;
    return (data: unknown) => {
      const result = zodSchema.safeParse(data);
      if (result.success) return { value: result.data };
      return { error: new RequestValidationError(httpPart ?? "request", fieldIssues(result.error)) };
    };
  });
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) =>
    responseSerializer(schema, options.checkResponses, { method, url, httpStatus }),
  );
}
