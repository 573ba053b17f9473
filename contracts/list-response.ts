import { z } from "zod";

/**
 * Apart from contracts/list-query.ts, which the app's first load uses to build list requests:
 * a schema there would bring the schema library into that load.
 */
/** The response schema of a list endpoint answering `item`s: the same shape as ListResponse. */
export const listResponseSchema = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({
    data: z.array(item),
    total: z.number().int().min(0),
    totalEstimated: z.boolean().optional(),
    nextCursor: z.string().optional(),
    prevCursor: z.string().optional(),
  });
