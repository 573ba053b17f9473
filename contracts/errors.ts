import { z } from "zod";

/** The one error shape every API answer uses. */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
  description: z.string().optional(),
  data: z.unknown().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** One entry of `data` on a 400: which field failed and why. */
export interface FieldIssue {
  path: string;
  message: string;
}
