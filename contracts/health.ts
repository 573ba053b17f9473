import { z } from "zod";

/** `GET /health`: 200 when the database answers, 503 (same shape) when it does not. */
export const healthSchema = z.strictObject({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  database: z.strictObject({ kind: z.enum(["pglite", "postgres"]), ok: z.boolean() }),
});
export type Health = z.infer<typeof healthSchema>;
