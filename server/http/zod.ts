import type { FastifyInstance, FastifyTypeProvider } from "fastify";
import type { z } from "zod";
import { fieldIssues, RequestValidationError } from "../errors";

/** Lets route handlers see the parsed zod output types of their params, query and body. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends z.ZodType ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends z.ZodType ? z.input<this["schema"]> : unknown;
}

const NUL = "\u0000";

/**
 * Where a NUL character is in parsed JSON (a string or a key), as a dotted path; null when there
 * is none. Walked with a stack, not recursion, so a deeply nested body cannot overflow it.
 */
export function nulPath(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === "string") {
      if (current.includes(NUL)) return path;
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
        if (key.includes(NUL)) return at;
        stack.push([item, at]);
      }
    }
  }
  return null;
}

/**
 * Every route's query, parameters and JSON body are refused with a 400 naming the field when a
 * string holds a NUL character: PostgreSQL's text and jsonb cannot store one (the query would
 * fail with a 500), and no field of ours has a use for it. This runs for routes without a zod
 * schema too (a body checked by hand, a list query read from the URL).
 */
function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    for (const [part, value] of [
      ["querystring", request.query],
      ["params", request.params],
      ["body", request.body],
    ] as const) {
      const path = nulPath(value);
      if (path !== null)
        throw new RequestValidationError(part, [{ path, message: "must not contain a NUL character" }]);
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

export function installZodValidation(app: FastifyInstance, options: { checkResponses: boolean }): void {
  refuseNulCharacters(app);
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
