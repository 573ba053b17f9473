import type { FastifyInstance, FastifyTypeProvider } from "fastify";
import type { z } from "zod";
import { RequestValidationError, fieldIssues } from "../errors";

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
    } else if (current !== null && typeof current === "object" && !Buffer.isBuffer(current) && !ArrayBuffer.isView(current)) {
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
    for (const [part, value] of [["querystring", request.query], ["params", request.params], ["body", request.body]] as const) {
      const path = nulPath(value);
      if (path !== null) throw new RequestValidationError(part, [{ path, message: "must not contain a NUL character" }]);
    }
  });
}

export function installZodValidation(app: FastifyInstance): void {
  refuseNulCharacters(app);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as z.ZodType;
    return (data: unknown) => {
      const result = zodSchema.safeParse(data);
      if (result.success) return { value: result.data };
      return { error: new RequestValidationError(httpPart ?? "request", fieldIssues(result.error)) };
    };
  });
  // Responses are shaped by handlers from typed rows; JSON.stringify is enough.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
