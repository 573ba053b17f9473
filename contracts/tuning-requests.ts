/**
 * Custom tuning requests: one ticket from a customer's car to an accepted tune. The customer asks
 * one dealer for a tune for one of their cars (its identity and stock read attached by the
 * server), the dealer quotes or says it is not possible, the customer pays through the
 * marketplace, the dealer delivers revisions (each a version of the request's own tune file,
 * licensed to that car at once), the customer asks for another revision with new logs or accepts
 * (or it is accepted for them after AUTO_ACCEPT_DAYS without a word).
 *
 * The state machine (states, who moves them, which actions the app offers) is in
 * ./tuning-request-states, without zod: the dashboard and the request list need it as they load,
 * and importing this module builds every schema in it.
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";
import { checksumReportSchema, currencies } from "./tune-files";
import { TUNING_REQUEST_STATES } from "./tuning-request-states";

export * from "./tuning-request-states";

const shortText = (label: string, max: number) => z.string().trim().max(max, `${label} is at most ${max} characters`);

/** The customer's short questionnaire: what the car has and what they want. */
export const questionnaireSchema = z.strictObject({
  fuel: z.enum(["95", "98", "100", "E85", "diesel", "other"], {
    error: "fuel is one of 95, 98, 100, E85, diesel, other",
  }),
  intake: shortText("intake", 200).default(""),
  exhaust: shortText("exhaust", 200).default(""),
  turbo: shortText("turbo", 200).default(""),
  intercooler: shortText("intercooler", 200).default(""),
  transmission: z.enum(["manual", "automatic", "dct", "other"], {
    error: "transmission is one of manual, automatic, dct, other",
  }),
  /** What they hope for, in the unit they give (hp). */
  targetPowerHp: z
    .number()
    .int("target power is whole horsepower")
    .min(1, "target power is at least 1 hp")
    .max(3000, "target power is at most 3000 hp")
    .nullable()
    .default(null),
  notes: shortText("notes", 4000).default(""),
});
export type Questionnaire = z.infer<typeof questionnaireSchema>;

const logIds = z.array(z.uuid("logIds must be data log ids")).max(20, "attach at most 20 logs").default([]);

export const tuningRequestCreateSchema = z.strictObject({
  vehicleId: z.uuid("vehicleId must be a vehicle's id"),
  /** The dealer asked: their dealer profile's id, as the dealer directory lists it. */
  dealerId: z.uuid("dealerId must be a dealer's id"),
  questionnaire: questionnaireSchema,
  logIds,
});
export type TuningRequestCreateInput = z.input<typeof tuningRequestCreateSchema>;

const note = z.string().trim().max(4000, "a note is at most 4000 characters");
const reason = z
  .string("give a reason: the other side is told it")
  .trim()
  .min(3, "give a reason: the other side is told it")
  .max(2000, "a reason is at most 2000 characters");

export const quoteActionSchema = z.strictObject({
  action: z.literal("quote"),
  priceCents: z
    .number()
    .int("the price is whole cents")
    .min(100, "the price is at least 1.00")
    .max(10_000_000, "the price is at most 100,000.00"),
  currency: z.enum(currencies, { error: `currency is one of ${currencies.join(", ")}` }),
  expectedDays: z
    .number()
    .int("expected days are whole days")
    .min(1, "expect at least 1 day")
    .max(90, "expect at most 90 days"),
  note: note.default(""),
});
export const revisionRequestActionSchema = z.strictObject({
  action: z.literal("request-revision"),
  note: z.string().trim().min(3, "say what should change").max(4000, "a note is at most 4000 characters"),
  logIds,
});

/** `PATCH /tuning-requests/{id}`: one action at a time; delivery is a file, so it has its own route (`…/revisions`). */
export const tuningRequestPatchSchema = z.discriminatedUnion(
  "action",
  [
    quoteActionSchema,
    z.strictObject({ action: z.literal("decline"), reason }),
    z.strictObject({ action: z.literal("cancel"), reason }),
    z.strictObject({ action: z.literal("start"), note: note.default("") }),
    revisionRequestActionSchema,
    z.strictObject({ action: z.literal("accept"), note: note.default("") }),
    z.strictObject({
      action: z.literal("message"),
      text: z.string().trim().min(1, "the message is empty").max(4000, "a message is at most 4000 characters"),
    }),
    /** The dealer names who on their team works the ticket (null: nobody yet). */
    z.strictObject({
      action: z.literal("assign"),
      assignee: z.string().trim().min(1, "name who works it").max(80, "a name is at most 80 characters").nullable(),
    }),
    /** The caller has read the thread up to now. */
    z.strictObject({ action: z.literal("read") }),
  ],
  { error: "action is one of quote, decline, cancel, start, request-revision, accept, message, assign, read" },
);
export type TuningRequestPatch = z.input<typeof tuningRequestPatchSchema>;
/** A patch as the server reads it (defaults filled). */
export type TuningRequestPatchBody = z.output<typeof tuningRequestPatchSchema>;

/** Multipart fields of `POST /tuning-requests/{id}/revisions` (with the file). */
export const revisionFieldsSchema = z.strictObject({
  note: z.string().trim().max(4000, "a note is at most 4000 characters").default(""),
});
/** Multipart fields of `POST /tuning-requests/{id}/files` (an attachment with its message). */
export const attachmentFieldsSchema = z.strictObject({
  text: z.string().trim().max(4000, "a message is at most 4000 characters").default(""),
});

/** `PATCH /dealers/{id}/settings`: the dealer's own terms for custom tunes. */
export const dealerSettingsSchema = z.strictObject({
  freeRevisionDays: z.number().int("whole days").min(0, "at least 0 days").max(365, "at most 365 days"),
});

const iso = z.iso.datetime();

/** One map's change in a revision: how many cells moved and by how much (physical units). */
export const mapChangeSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  unit: z.string().nullable(),
  cells: z.number().int().min(0),
  maxDelta: z.number(),
  meanDelta: z.number(),
});
export type MapChange = z.infer<typeof mapChangeSchema>;

/**
 * A revision checked with `dryRun=true` on `POST /tuning-requests/{id}/revisions` (200): what
 * would be delivered, nothing stored. `checksumsFixed` says the portal corrected failing
 * checksums (asked with `fixChecksums=true`), and `checksums` are then as they verify after.
 */
export const revisionCheckSchema = z.strictObject({
  revision: z.number().int().min(1),
  firmwareId: z.string(),
  size: z.number().int(),
  checksums: z.array(checksumReportSchema),
  checksumsFixed: z.boolean(),
  changesFromStock: z.array(mapChangeSchema),
  changesFromPrevious: z.array(mapChangeSchema).nullable(),
});
export type RevisionCheck = z.infer<typeof revisionCheckSchema>;

export const revisionSchema = z.strictObject({
  number: z.number().int().min(1),
  fileId: z.string(),
  tuneFileId: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  note: z.string(),
  /** Against the car's stock read, and against the previous revision (null for the first). Null when the dealer's protection hides the changes. */
  changesFromStock: z.array(mapChangeSchema).nullable(),
  changesFromPrevious: z.array(mapChangeSchema).nullable(),
  deliveredAt: iso,
});
export type Revision = z.infer<typeof revisionSchema>;

export const tuningRequestFileSchema = z.strictObject({
  id: z.string(),
  requestId: z.string(),
  kind: z.enum(["stock-read", "revision", "attachment"]),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  senderUid: z.string(),
  /** Which side sent it. */
  sender: z.enum(["customer", "dealer", "admin"]),
  revision: z.number().int().nullable(),
  createdAt: iso,
});
export type TuningRequestFile = z.infer<typeof tuningRequestFileSchema>;

export const tuningRequestEventSchema = z.strictObject({
  id: z.string(),
  at: iso,
  actorUid: z.string().nullable(),
  actor: z.enum(["customer", "dealer", "admin", "system"]),
  kind: z.enum(["submitted", "transition", "message", "assignment", "revision", "payment"]),
  from: z.enum(TUNING_REQUEST_STATES).nullable(),
  to: z.enum(TUNING_REQUEST_STATES).nullable(),
  text: z.string(),
  logIds: z.array(z.string()),
  fileIds: z.array(z.string()),
});
export type TuningRequestEvent = z.infer<typeof tuningRequestEventSchema>;

export const tuningRequestSummarySchema = z.strictObject({
  id: z.string(),
  /** A short number people can say on the phone. */
  reference: z.string(),
  state: z.enum(TUNING_REQUEST_STATES),
  customerUid: z.string(),
  customerName: z.string().nullable(),
  dealerUid: z.string(),
  /** The dealer's profile (null once it was removed). */
  dealerId: z.string().nullable(),
  dealerName: z.string().nullable(),
  vehicleId: z.string().nullable(),
  vehicleName: z.string().nullable(),
  firmwareId: z.string(),
  assignee: z.string().nullable(),
  quote: z
    .strictObject({
      priceCents: z.number().int(),
      currency: z.enum(currencies),
      expectedDays: z.number().int(),
      quotedAt: iso,
    })
    .nullable(),
  /**
   * When the work is promised: the quote's days from its time, then from payment once paid (the
   * dealer starts when paid). Null before a quote. Late is `isLate` of this and the state.
   */
  dueAt: iso.nullable(),
  revisions: z.number().int().min(0),
  /** When the customer last did something (asked, paid, wrote, asked for a revision). */
  lastCustomerActionAt: iso,
  /** Messages from the other side the caller has not read. */
  unread: z.number().int().min(0),
  createdAt: iso,
  updatedAt: iso,
});
export type TuningRequestSummary = z.infer<typeof tuningRequestSummarySchema>;

export const tuningRequestSchema = tuningRequestSummarySchema.extend({
  questionnaire: questionnaireSchema,
  logIds: z.array(z.string()),
  vehicle: z.strictObject({
    vin: z.string().nullable(),
    ecuSerial: z.string().nullable(),
    softwareId: z.string().nullable(),
    stockSha256: z.string(),
    stockSize: z.number().int(),
  }),
  orderId: z.string().nullable(),
  tuneFileId: z.string().nullable(),
  freeRevisionDays: z.number().int(),
  /** Until when the customer may ask for a free revision (null before the first delivery). */
  freeRevisionsUntil: iso.nullable(),
  /** When a delivered revision will be accepted for the customer if nobody acts (null unless delivered). */
  autoAcceptAt: iso.nullable(),
  closedReason: z.string().nullable(),
  /** What the caller may do now (from TUNING_REQUEST_ACTIONS, plus messages). */
  actions: z.array(z.string()),
  revisionList: z.array(revisionSchema),
  events: z.array(tuningRequestEventSchema),
  files: z.array(tuningRequestFileSchema),
});
export type TuningRequest = z.infer<typeof tuningRequestSchema>;

export const tuningRequestList = {
  sort: ["createdAt", "updatedAt", "lastCustomerActionAt", "state", "dueAt"],
  filter: ["state", "vehicleId", "dealerUid", "customerUid", "createdAt", "lastCustomerActionAt", "dueAt"],
} as const;
export const tuningRequestPageSchema = listResponseSchema(tuningRequestSummarySchema);
export const tuningRequestFilesSchema = z.strictObject({
  data: z.array(tuningRequestFileSchema),
  total: z.number().int(),
});

/** The ticket's event stream: `changed` with the request whenever anything on it changes. */
export const TUNING_REQUEST_EVENT = "changed";
