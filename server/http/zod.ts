import type { FastifyInstance, FastifyTypeProvider } from "fastify";
import type { z } from "zod";
import { RequestValidationError, fieldIssues } from "../errors";

/** Lets route handlers see the parsed zod output types of their params, query and body. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends z.ZodType ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends z.ZodType ? z.input<this["schema"]> : unknown;
}

export function installZodValidation(app: FastifyInstance): void {
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
