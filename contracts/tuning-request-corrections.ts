/**
 * Corrections from logs written into a tuning request's next revision: the dealer reads the maps of
 * the request's current tune (its last revision, or the stock read before the first), changes cells
 * of one map (proposed from the request's logs, adjusted by hand) and delivers them as a revision,
 * with the reasons in plain words for the customer.
 */
import { z } from "zod";
import { itemValuesSchema } from "./tune-definition";

/** One map of the request's current tune, as the dealer lays logs on it. */
export const requestMapSchema = z.strictObject({
  title: z.string(),
  category: z.string().nullable(),
  values: itemValuesSchema,
});
export type RequestMap = z.infer<typeof requestMapSchema>;

/** `GET /tuning-requests/{id}/maps`: the tables of the tune the next revision starts from. */
export const requestMapsSchema = z.strictObject({
  /** The revision the maps were read from; 0 for the stock read. */
  revision: z.number().int().min(0),
  maps: z.array(requestMapSchema),
});
export type RequestMaps = z.infer<typeof requestMapsSchema>;

const cellSchema = z.strictObject({
  row: z.number().int("row must be a whole number").min(0, "row must be at least 0"),
  col: z.number().int("col must be a whole number").min(0, "col must be at least 0"),
  value: z.number("value must be a number"),
});

/** `POST /tuning-requests/{id}/corrections`: changed cells of one map, delivered as the next revision. */
export const correctionBodySchema = z.strictObject({
  itemId: z.string().min(1, "name the map to change"),
  cells: z
    .array(cellSchema)
    .min(1, "change at least one cell")
    .max(10000, "change at most 10000 cells at once")
    .refine((cells) => new Set(cells.map((c) => `${c.row},${c.col}`)).size === cells.length, "each cell at most once"),
  /** Why, one phrase per region of change ("fuel +3 % at 4,000–5,500 rpm: ran lean of target"). */
  reasons: z.array(z.string().trim().min(1).max(400, "a reason is at most 400 characters")).max(50).default([]),
  note: z.string().trim().max(2000, "a note is at most 2000 characters").default(""),
  /** Check the revision as it would be delivered, storing nothing. */
  dryRun: z.boolean().default(false),
});
export type CorrectionBody = z.input<typeof correctionBodySchema>;
/** The body as validated, its defaults filled in. */
export type Correction = z.output<typeof correctionBodySchema>;
