/**
 * User vehicles: the car as the phone app connects it (VIN, ECU identity,
 * adapter, battery), the owner's notes on it, the app's device attributes, the
 * ECU snapshots recorded at each connect and around each flash, and the
 * vehicle's timeline.
 */
import { z } from "zod";
import { dynoProfileSchema } from "./data-logs";
import { vinSchema } from "./firmware-support";
import { listResponseSchema } from "./list-response";

const idText = (label: string, max = 64) =>
  z
    .string(`${label} must be text`)
    .trim()
    .min(1, `${label} is empty`)
    .max(max, `${label} is at most ${max} characters`)
    .refine((value) => !/[\u0000-\u001f]/.test(value), `${label} has control characters`);

/** What the app reads from the ECU (UDS 0x22 identifiers): the same fields at connect, pre-flight and in snapshots. */
export const ecuIdentitySchema = z.strictObject({
  /** The ECU software id (VW: box code + software version, BMW: CALID): the catalogue identifies the firmware by it. */
  softwareId: idText("softwareId"),
  hardwareNumber: idText("hardwareNumber").optional(),
  ecuSerial: idText("ecuSerial"),
  bootloaderVersion: idText("bootloaderVersion").optional(),
  calibrationId: idText("calibrationId").optional(),
});
export type EcuIdentity = z.infer<typeof ecuIdentitySchema>;

export const adapterSchema = z.strictObject({
  /** The adapter model (e.g. "OBDLink MX+", "ENET", "virtual"). */
  kind: idText("adapter kind"),
  firmware: idText("adapter firmware"),
});
export type Adapter = z.infer<typeof adapterSchema>;

/** A battery voltage as read over OBD: 0 to 30 V. */
export const batteryVoltsSchema = z
  .number("batteryVolts must be a number")
  .min(0, "batteryVolts is at least 0")
  .max(30, "batteryVolts is at most 30");

/** Diagnostic trouble codes as the ECU reports them: P0299, U0100 … */
export const faultCodesSchema = z
  .array(z.string().regex(/^[PCBU][0-9A-F]{4}(-[0-9A-F]{2})?$/, "a fault code looks like P0299"))
  .max(200);

/** `POST /user-vehicles/connect`: what the phone app sends when it meets a car. */
export const vehicleConnectSchema = z.strictObject({
  vin: vinSchema,
  ecu: ecuIdentitySchema,
  adapter: adapterSchema,
  appVersion: idText("appVersion", 32),
  batteryVolts: batteryVoltsSchema,
  faultCodes: faultCodesSchema.default([]),
  flashCounter: z.number().int().min(0).max(0xffff).optional(),
  programmingAttempts: z.number().int().min(0).max(0xffff).optional(),
  /** The nickname for a car met for the first time; an existing vehicle keeps its own. */
  name: z.string().trim().min(1).max(80).optional(),
});
export type VehicleConnect = z.input<typeof vehicleConnectSchema>;

export const FUELS = ["91", "93", "95", "98", "100", "E30", "E50", "E85", "diesel", "race"] as const;

/** `PATCH /user-vehicles/{id}`: the owner's fields. The identity is the app's and is not editable here. */
export const vehiclePatchSchema = z.strictObject({
  name: z.string().trim().min(1, "the nickname is empty").max(80, "the nickname is at most 80 characters").optional(),
  modifications: z
    .array(z.string().trim().min(1, "a modification is empty").max(120, "a modification is at most 120 characters"))
    .max(50, "at most 50 modifications")
    .optional(),
  notes: z.string().max(20_000, "notes are at most 20,000 characters").optional(),
  fuel: z
    .enum(FUELS, { error: `fuel must be one of ${FUELS.join(", ")}` })
    .nullable()
    .optional(),
  dynoProfile: dynoProfileSchema.nullable().optional(),
});
export type VehiclePatch = z.input<typeof vehiclePatchSchema>;

/** `PATCH /users/{id}/vehicles/{vehicleId}/device-attributes`: the phone app's settings for this car. */
export const deviceAttributesSchema = z.strictObject({
  adapter: adapterSchema.optional(),
  /** The app's version the car was last met with (set at connect). */
  appVersion: idText("appVersion", 32).optional(),
  phone: z
    .strictObject({
      platform: z.enum(["ios", "android"]),
      model: idText("phone model", 80),
      osVersion: idText("osVersion", 32),
    })
    .optional(),
  /** The app's own settings for this car (units, logging rate, …): small flat values only. */
  appSettings: z.record(z.string().max(64), z.union([z.string().max(200), z.number(), z.boolean()])).optional(),
});
export type DeviceAttributes = z.infer<typeof deviceAttributesSchema>;

export const supportStates = ["supported", "unsupported"] as const;

export const vehicleSchema = z.strictObject({
  id: z.string(),
  ownerUid: z.string(),
  /** Shown to the owner and admins; a dealer sees the owner's display name only. */
  ownerName: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  name: z.string(),
  vin: z.string().nullable(),
  ecu: z.strictObject({
    softwareId: z.string().nullable(),
    hardwareNumber: z.string().nullable(),
    ecuSerial: z.string().nullable(),
    bootloaderVersion: z.string().nullable(),
  }),
  firmwareId: z.string().nullable(),
  /** The supported-vehicle record the car's firmware belongs to: its make, model and engine. */
  catalogue: z.strictObject({ make: z.string(), model: z.string(), engine: z.string() }).nullable(),
  /**
   * supported: the catalogue knows the firmware and can flash it; unsupported otherwise, with the
   * way to ask for support (`POST /user-vehicles/support-request`) and the request already made, if any.
   */
  support: z.strictObject({
    state: z.enum(supportStates),
    reason: z.string().nullable(),
    ecuFamily: z.string().nullable(),
    flashing: z.boolean(),
    supportRequestId: z.string().nullable(),
  }),
  /** Owner's fields; null for a dealer, who does not see them. */
  modifications: z.array(z.string()).nullable(),
  notes: z.string().nullable(),
  fuel: z.string().nullable(),
  dynoProfile: dynoProfileSchema.nullable(),
  deviceAttributes: deviceAttributesSchema.nullable(),
  stockDump: z
    .strictObject({
      sha256: z.string(),
      size: z.number(),
      slot: z.number().nullable(),
      uploadedAt: z.string().nullable(),
    })
    .nullable(),
  /** What the vehicle list cards show. */
  currentTune: z
    .strictObject({
      tuneFileId: z.string().nullable(),
      title: z.string().nullable(),
      version: z.number().nullable(),
      kind: z.enum(["tune", "stock"]),
    })
    .nullable(),
  lastFlash: z.strictObject({ id: z.string(), result: z.string(), at: z.string() }).nullable(),
  lastConnectedAt: z.string().nullable(),
  lastBatteryVolts: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;
export const vehiclePageSchema = listResponseSchema(vehicleSchema);

/** `GET /user-vehicles`: filters, sorts and `q` (VIN or nickname, and for admins the owner). */
export const vehicleList = {
  sort: ["name", "vin", "firmwareId", "lastConnectedAt", "createdAt", "updatedAt"],
  filter: ["ownerUid", "vin", "firmwareId", "softwareId", "ecuSerial", "lastConnectedAt", "createdAt"],
} as const;

/** The answer of `POST /user-vehicles/connect`: the vehicle, whether it was new, and the snapshot recorded. */
export const vehicleConnectedSchema = z.strictObject({
  vehicle: vehicleSchema,
  created: z.boolean(),
  snapshotId: z.string(),
});
export type VehicleConnected = z.infer<typeof vehicleConnectedSchema>;

export const snapshotKinds = ["connect", "before-flash", "after-flash"] as const;
export type SnapshotKind = (typeof snapshotKinds)[number];

export const snapshotSchema = z.strictObject({
  id: z.string(),
  vehicleId: z.string(),
  kind: z.enum(snapshotKinds),
  flashLogId: z.string().nullable(),
  vin: z.string().nullable(),
  ecuSerial: z.string().nullable(),
  softwareId: z.string().nullable(),
  hardwareNumber: z.string().nullable(),
  bootloaderVersion: z.string().nullable(),
  calibrationId: z.string().nullable(),
  firmwareId: z.string().nullable(),
  faultCodes: z.array(z.string()),
  batteryVolts: z.number().nullable(),
  flashCounter: z.number().nullable(),
  programmingAttempts: z.number().nullable(),
  adapter: adapterSchema.nullable(),
  appVersion: z.string().nullable(),
  recordedAt: z.string(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;
export const snapshotPageSchema = listResponseSchema(snapshotSchema);

/** The fields two snapshots are compared on, in the order the page lists what changed. */
export const snapshotComparedFields = [
  "vin",
  "ecuSerial",
  "softwareId",
  "calibrationId",
  "hardwareNumber",
  "bootloaderVersion",
  "firmwareId",
  "faultCodes",
  "batteryVolts",
  "flashCounter",
  "programmingAttempts",
  "appVersion",
] as const satisfies readonly (keyof Snapshot)[];

export const timelineKinds = [
  "connect",
  "stock-read",
  "bake",
  "flash",
  "back-to-stock",
  "log",
  "tuning-request",
] as const;
export type TimelineKind = (typeof timelineKinds)[number];

/**
 * `GET /user-vehicles/{id}/timeline`: what happened to the car, newest first. Consecutive
 * entries that say the same thing (connects that changed nothing, bakes of the same file) are
 * one entry with a count; flashes, returns to stock, logs and tuning request steps never merge.
 */
export const timelineEntrySchema = z.strictObject({
  kind: z.enum(timelineKinds),
  /** When it (for a grouped entry: its newest member) happened. */
  at: z.string(),
  /** When the oldest member happened: `at` for a single entry. */
  firstAt: z.string(),
  /** How many records the entry stands for: 1 unless grouped. */
  count: z.number().int().min(1),
  /** The record the entry (its newest member) stands for (snapshot, baked file, flash log, data log, request). */
  refId: z.string().nullable(),
  title: z.string(),
  detail: z.string(),
  /** For flashes: the result. */
  result: z.string().nullable(),
  /** A grouped entry's records, newest first; empty for a single entry. */
  members: z.array(z.strictObject({ at: z.string(), refId: z.string().nullable(), detail: z.string() })),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** The most entries one page of the timeline holds, and how many it holds unless asked. */
export const TIMELINE_PAGE_MAX = 100;
export const TIMELINE_PAGE_DEFAULT = 20;

/**
 * Where a page of the timeline starts: the `nextCursor` of the page before, the time of the last
 * record shown (UTC, microseconds) and its id. Clients pass it back as it came.
 */
const TIMELINE_CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export const timelineCursorSchema = z
  .string("before must be text")
  .regex(TIMELINE_CURSOR, "before is not a cursor the timeline gave out; start again from the newest page")
  .refine((text) => {
    // A date the calendar lacks (30 February) parses as another day: the round trip tells.
    // PostgreSQL has no year 0.
    const at = `${text.slice(0, 23)}Z`;
    return !at.startsWith("0000") && !Number.isNaN(Date.parse(at)) && new Date(at).toISOString() === at;
  }, "before names a time that does not exist")
  .transform((text) => {
    const [, at, id] = TIMELINE_CURSOR.exec(text)!;
    return { at: at!, id: id! };
  });
export type TimelineCursor = z.output<typeof timelineCursorSchema>;
export const timelineCursorOf = (cursor: TimelineCursor) => `${cursor.at}_${cursor.id}`;

/** The kinds to show: a comma list of timelineKinds, every kind when absent. */
const isTimelineKind = (text: string): text is TimelineKind => (timelineKinds as readonly string[]).includes(text);
const kindListSchema = z
  .string("kind must be text")
  .refine((text) => text.split(",").every(isTimelineKind), `kind is a comma list of ${timelineKinds.join(", ")}`)
  .transform((text) => text.split(",").filter(isTimelineKind));

export const timelineQuerySchema = z.strictObject({
  limit: z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, "limit is at least 1")
    .max(TIMELINE_PAGE_MAX, `limit is at most ${TIMELINE_PAGE_MAX}`)
    .default(TIMELINE_PAGE_DEFAULT),
  before: timelineCursorSchema.optional(),
  kind: kindListSchema.optional(),
});
export type TimelineQuery = z.output<typeof timelineQuerySchema>;

export const timelineSchema = z.strictObject({
  data: z.array(timelineEntrySchema),
  /** The cursor of the next (older) page; null when nothing older is left. */
  nextCursor: z.string().nullable(),
});
export type TimelinePage = z.infer<typeof timelineSchema>;
