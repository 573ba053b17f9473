/**
 * Data log markers: notes a user pins to a moment or a stretch of a log, and the markers the
 * logger wrote into the file itself (shown beside them, read only).
 */
import { z } from "zod";
import { MARKER_NOTE_MAX } from "./data-log-marker-limits";
import { listResponseSchema } from "./list-response";

const seconds = (field: string) =>
  z.number(`${field} must be a number of seconds`).finite().min(0, `${field} must be 0 or later`);

const note = z
  .string("note must be text")
  .trim()
  .min(1, "note must not be empty")
  .max(MARKER_NOTE_MAX, `note must be at most ${MARKER_NOTE_MAX} characters`);

/**
 * A new marker: a moment (`startSeconds`) or a stretch (`startSeconds` to `endSeconds`), in
 * seconds from the log's start; the server checks both lie inside the log.
 */
export const dataLogMarkerInputSchema = z.strictObject({
  startSeconds: seconds("startSeconds"),
  endSeconds: seconds("endSeconds").nullable().optional(),
  note,
});
export type DataLogMarkerInput = z.input<typeof dataLogMarkerInputSchema>;

/** A change to a marker: any of its fields; `endSeconds: null` makes a stretch a moment again. */
export const dataLogMarkerPatchSchema = z.strictObject({
  startSeconds: seconds("startSeconds").optional(),
  endSeconds: seconds("endSeconds").nullable().optional(),
  note: note.optional(),
});
export type DataLogMarkerPatch = z.input<typeof dataLogMarkerPatchSchema>;

/** A moment the server stamped, as the API writes it (ISO 8601 in UTC). */
const isoDateTime = z.iso.datetime();

export const dataLogMarkerSchema = z.strictObject({
  /** A UUID for a user's marker; `file-<n>` for the file's own, which cannot be changed. */
  id: z.string(),
  logId: z.string(),
  /** "user": kept by the portal; "file": written by the logger into the log file. */
  source: z.enum(["user", "file"]),
  startSeconds: z.number(),
  endSeconds: z.number().nullable(),
  note: z.string(),
  /** When a user's marker was made and last changed; null for the file's own. */
  createdAt: isoDateTime.nullable(),
  updatedAt: isoDateTime.nullable(),
});
export type DataLogMarker = z.infer<typeof dataLogMarkerSchema>;

/**
 * `GET /data-logs/{id}/markers`: every marker of a log in one page, by time, and whether the caller
 * may add and change them (the owner and admins; not a dealer reading a customer's log, nor a share link).
 */
export const dataLogMarkerPageSchema = listResponseSchema(dataLogMarkerSchema).extend({ writable: z.boolean() });
