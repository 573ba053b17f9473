/**
 * Format requests: a data log the portal refused because it does not read its format, kept with
 * its uploader's consent so administrators can add the format, then deleted when the request is
 * closed. The uploader names the logger or tool that wrote it and may add a note; an admin marks
 * the request supported (the uploader is told, and offered the upload again) or declined.
 *
 * `POST /format-requests` (multipart): the refused log as the `file` part, the fields below as
 * form fields. The server reads the file again and keeps it only if it is still refused for its
 * format; the refusal it stores is its own, never the client's words.
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";

export const FORMAT_REQUEST_STATES = ["open", "supported", "declined"] as const;
export type FormatRequestState = (typeof FORMAT_REQUEST_STATES)[number];

/** The log parser's refusals that mean "a format we do not read" (domain/logs/errors.ts), as opposed to a broken file. */
export const FORMAT_REFUSAL_CODES = ["unsupported", "binary", "bad-format", "no-header"] as const;

/** Open requests one user may have at once: each holds a file until an admin closes it. */
export const MAX_OPEN_FORMAT_REQUESTS = 5;

/** What the consent field says the uploader agreed to; the form shows the same words. */
export const FORMAT_REQUEST_CONSENT =
  "Keep this file so administrators can add its format. Only administrators can see it, and it is deleted when the request is closed.";

/** The form fields of a request (multipart fields are strings). */
export const formatRequestFieldsSchema = z.strictObject({
  tool: z
    .string({ error: "name the logger or tool that wrote the file" })
    .trim()
    .min(1, "name the logger or tool that wrote the file")
    .max(200, "the logger or tool is at most 200 characters"),
  note: z.string().trim().max(2000, "a note is at most 2000 characters").optional(),
  consent: z.literal("true", { error: "agree to the file being kept (consent=true): nothing is kept without it" }),
});
export type FormatRequestFields = z.input<typeof formatRequestFieldsSchema>;

export const formatRequestSchema = z.strictObject({
  id: z.string(),
  ownerUid: z.string(),
  /** The uploader's email, for the admins' list. */
  ownerEmail: z.string().nullable(),
  state: z.enum(FORMAT_REQUEST_STATES),
  tool: z.string(),
  note: z.string().nullable(),
  fileName: z.string(),
  fileSize: z.number().int().min(0),
  /** Whether the kept file is still there to download (it is deleted when the request is closed). */
  fileKept: z.boolean(),
  /** The parser's refusal: its code and the message the uploader read. */
  refusalCode: z.string(),
  refusalMessage: z.string(),
  createdAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
  /** The admin's note, told to the uploader. */
  closingNote: z.string().nullable(),
});
export type FormatRequest = z.infer<typeof formatRequestSchema>;
export const formatRequestPageSchema = listResponseSchema(formatRequestSchema);

/** `POST /format-requests/{id}/close` (admins): supported (the format is read now) or declined, with a note. */
export const formatRequestClosingSchema = z.strictObject({
  state: z.enum(["supported", "declined"], { error: "state must be supported or declined" }),
  note: z.string().trim().max(1000, "a note is at most 1000 characters").optional(),
});
export type FormatRequestClosing = z.input<typeof formatRequestClosingSchema>;

/** Admins see every request (filter by `ownerUid`); anyone else only their own. Newest first by default. */
export const formatRequestList = {
  sort: ["createdAt", "closedAt"],
  filter: ["state", "ownerUid", "createdAt"],
} as const;
