/**
 * Data log layouts: the panes of the log chart (which channels, stacked how) kept under a name
 * per user and logger, so "Boost" opens the same panes on every log of that logger; and the
 * layout a share link carries, so whoever opens the link sees what was shared.
 */
import { z } from "zod";
import { LAYOUT_NAME_MAX, MAX_PANE_CHANNELS, MAX_PANES } from "./data-log-layout-limits";
import { listResponseSchema } from "./list-response";

/** Panes top to bottom, each the channel ids it draws. */
export const layoutPanesSchema = z
  .array(
    z
      .array(z.string("a channel id must be text").min(1, "a channel id must not be empty").max(200))
      .min(1, "a pane must draw at least one channel")
      .max(MAX_PANE_CHANNELS, `a pane draws at most ${MAX_PANE_CHANNELS} channels`),
    "panes must be a list of panes, each a list of channel ids",
  )
  .min(1, "a layout needs at least one pane")
  .max(MAX_PANES, `a layout has at most ${MAX_PANES} panes`);

const layoutName = z
  .string("name must be text")
  .trim()
  .min(1, "name must not be empty")
  .max(LAYOUT_NAME_MAX, `name must be at most ${LAYOUT_NAME_MAX} characters`);

/** A logger's format id, as a data log names it (`GET /data-logs/{id}`'s `format`). */
const format = z.string("format must be a logger's format id").min(1, "format must not be empty").max(40);

export const dataLogLayoutInputSchema = z.strictObject({ format, name: layoutName, panes: layoutPanesSchema });
export type DataLogLayoutInput = z.input<typeof dataLogLayoutInputSchema>;

/** A renamed layout, new panes, or both. */
export const dataLogLayoutPatchSchema = z.strictObject({
  name: layoutName.optional(),
  panes: layoutPanesSchema.optional(),
});
export type DataLogLayoutPatch = z.input<typeof dataLogLayoutPatchSchema>;

/** `GET /data-log-layouts?format=…`: the caller's layouts, of one logger when `format` is given. */
export const dataLogLayoutQuerySchema = z.strictObject({ format: format.optional() });

export const dataLogLayoutSchema = z.strictObject({
  id: z.string(),
  format: z.string(),
  name: z.string(),
  panes: z.array(z.array(z.string())),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DataLogLayout = z.infer<typeof dataLogLayoutSchema>;

export const dataLogLayoutPageSchema = listResponseSchema(dataLogLayoutSchema);

/** The layout a share link opens with: a name and its panes, of the shared log's channels. */
export const sharedLayoutSchema = z.strictObject({ name: layoutName, panes: layoutPanesSchema });
export type SharedLayout = z.infer<typeof sharedLayoutSchema>;
