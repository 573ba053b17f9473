/**
 * Flash logs and flash sessions (spec: POST /user-vehicles/{id}/flash-authentication,
 * GET and POST /user-vehicles/{id}/flash-logs, GET /flash-log, GET /flash-log/{id}).
 *
 * A flash goes: pre-flight and grant (flash-authentication, which also answers the
 * security-access key for the ECU's seed) → the app starts a session with the grant →
 * reports its steps as it goes (the portal shows them live) → ends it with a result.
 * A failed session is recovered by a later session that names it (`recoversId`):
 * resume from the failed block, or write the stock read back. A session that stops
 * reporting is marked abandoned. A flash reported after the fact, without a grant
 * (`flashLogCreateSchema`), is still accepted as history.
 * The UDS sequence and negative response codes: shared/docs/domain.md "Flashing".
 */
import { z } from "zod";
import { vinSchema } from "./firmware-support";
import { storable } from "./list-query";
import {
  adapterSchema,
  batteryVoltsSchema,
  ecuIdentitySchema,
  faultCodesSchema,
  snapshotSchema,
} from "./user-vehicles";

/**
 * running: the app is flashing; success / failed: how it ended; recovered: it failed and a later
 * session brought the ECU back; abandoned: the app stopped reporting; aborted: the app gave up
 * before writing anything.
 */
export const flashResults = ["running", "success", "failed", "recovered", "abandoned", "aborted"] as const;
export type FlashResult = (typeof flashResults)[number];
/** The results an app may end a session with. */
export const flashEndResults = ["success", "failed", "aborted"] as const;
/** What a flash reported after the fact may say. */
export const reportedFlashResults = ["success", "failed", "aborted"] as const;

/** The steps of a flash as VW_Flash names them, in order; "block" repeats per block with its number and percent. */
export const flashSteps = [
  "setup",
  "connecting",
  "security-access",
  "erasing",
  "block",
  "verifying",
  "dependencies",
  "reset",
  "done",
] as const;
export type FlashStep = (typeof flashSteps)[number];
export const flashStepStatuses = ["started", "ok", "retry", "failed"] as const;

/** UDS negative response codes (0x7F <service> <code>) by number: their name and what usually causes them. */
export const NEGATIVE_RESPONSES: Readonly<Record<number, { name: string; cause: string }>> = {
  0x10: { name: "generalReject", cause: "the ECU refused without a reason" },
  0x11: { name: "serviceNotSupported", cause: "the ECU does not offer this service in this session" },
  0x12: { name: "subFunctionNotSupported", cause: "wrong sub-function for this ECU or session" },
  0x13: { name: "incorrectMessageLengthOrInvalidFormat", cause: "a malformed request: adapter or app bug" },
  0x22: { name: "conditionsNotCorrect", cause: "engine running, ignition state or a preceding step missing" },
  0x24: { name: "requestSequenceError", cause: "a step out of order (e.g. transfer before request download)" },
  0x31: { name: "requestOutOfRange", cause: "an address, length or identifier the ECU does not accept" },
  0x33: { name: "securityAccessDenied", cause: "the ECU is locked: security access failed or was skipped" },
  0x35: { name: "invalidKey", cause: "the key does not match the seed: wrong seed/key algorithm or firmware" },
  0x36: { name: "exceededNumberOfAttempts", cause: "too many wrong keys: the ECU locks security access" },
  0x37: {
    name: "requiredTimeDelayNotExpired",
    cause: "locked after wrong keys: wait (often 10 minutes, ignition on) and retry",
  },
  0x70: { name: "uploadDownloadNotAccepted", cause: "the ECU refuses the download: memory protected or wrong block" },
  0x71: { name: "transferDataSuspended", cause: "the transfer stopped: a lost frame or a dropped connection" },
  0x72: { name: "generalProgrammingFailure", cause: "erase or write failed in flash memory: retry, then recover" },
  0x73: { name: "wrongBlockSequenceCounter", cause: "a transfer frame was lost or repeated" },
  0x78: {
    name: "requestCorrectlyReceivedResponsePending",
    cause: "the ECU is busy (erase, checksum) and answers later",
  },
  0x7e: { name: "subFunctionNotSupportedInActiveSession", cause: "the step needs another diagnostic session" },
  0x7f: { name: "serviceNotSupportedInActiveSession", cause: "the step needs the programming session" },
  0x92: { name: "voltageTooHigh", cause: "supply voltage above the ECU's limit" },
  0x93: { name: "voltageTooLow", cause: "battery too low: connect a charger (12.0 V minimum) and retry" },
};

/** "0x35 invalidKey", or the bare number for a code not in the table. */
export function negativeResponseLabel(code: number): string {
  const hex = `0x${code.toString(16).padStart(2, "0").toUpperCase()}`;
  const known = NEGATIVE_RESPONSES[code];
  return known ? `${hex} ${known.name}` : hex;
}

const sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/i, "sha256 must be 64 hexadecimal digits")
  .transform((value) => value.toLowerCase());
const hexBytes = (label: string, maxBytes: number) =>
  z
    .string()
    .regex(/^([0-9a-fA-F]{2})*$/, `${label} is hexadecimal bytes`)
    .max(maxBytes * 2, `${label} is at most ${maxBytes} bytes`)
    .transform((value) => value.toUpperCase());

// ---------------------------------------------------------------------------
// Pre-flight and grant: POST /user-vehicles/{id}/flash-authentication

export const flashAuthenticationSchema = z
  .strictObject({
    /** "tune": a bake of a tune licensed for this car; "stock": the car's own stock read (always allowed). */
    kind: z.enum(["tune", "stock"]),
    bakedTuneFileId: z.uuid("bakedTuneFileId must be a baked tune file's id").optional(),
    /** What the app reads from the car now. */
    vin: vinSchema,
    ecu: ecuIdentitySchema,
    batteryVolts: batteryVoltsSchema,
    /** SHA-256 of the exact bytes the app will write. */
    sha256: sha256Schema,
    /** The ECU's answer to security access "request seed" (27 xx), as hex; all zeros means already unlocked. */
    seed: hexBytes("seed", 64).refine((value) => value.length >= 2, "seed is at least one byte"),
  })
  .refine((value) => value.kind === "stock" || value.bakedTuneFileId !== undefined, {
    path: ["bakedTuneFileId"],
    message: "a tune flash names its baked file",
  });
export type FlashAuthentication = z.input<typeof flashAuthenticationSchema>;

/** The pre-flight checks in the order they run; a refusal (409) names the first that failed in `data.check`. */
export const preflightChecks = [
  "owner",
  "vin",
  "ecu-serial",
  "software-id",
  "licence",
  "file",
  "checksums",
  "battery",
  "flashing-support",
] as const;
export type PreflightCheck = (typeof preflightChecks)[number];

export const preflightResultSchema = z.strictObject({
  check: z.enum(preflightChecks),
  ok: z.boolean(),
  message: z.string(),
});

/**
 * A pre-flight the app ran, as the car's event stream tells it: the page that handed the flash
 * over shows the live checks, and a refusal naming the failed one, though the app asked.
 */
export const preflightEventSchema = z.strictObject({
  passed: z.boolean(),
  kind: z.enum(["tune", "stock"]),
  /** The first check that failed; null when all passed. */
  failed: z.enum(preflightChecks).nullable(),
  checks: z.array(preflightResultSchema),
  at: z.string(),
});
export type PreflightEvent = z.infer<typeof preflightEventSchema>;

/** The default minimum battery voltage when the firmware's flashing profile names none. */
export const DEFAULT_MIN_BATTERY_VOLTS = 12.0;
/** How long a grant may be used. */
export const FLASH_GRANT_TTL_MS = 15 * 60_000;

export const flashGrantSchema = z.strictObject({
  id: z.string(),
  /** The signed grant the app sends back when it starts the session: one use, until expiresAt. */
  token: z.string(),
  vehicleId: z.string(),
  kind: z.enum(["tune", "stock"]),
  bakedTuneFileId: z.string().nullable(),
  sha256: z.string(),
  ecuSerial: z.string(),
  firmwareId: z.string(),
  expiresAt: z.string(),
});
export type FlashGrant = z.infer<typeof flashGrantSchema>;

export const flashAuthenticationAnswerSchema = z.strictObject({
  grant: flashGrantSchema,
  /** The security-access key for the seed sent, hex, computed on the server. */
  key: z.string(),
  securityLevel: z.number(),
  /** Every check, all passed. */
  checks: z.array(preflightResultSchema),
  /** The blocks to write, from the firmware's flashing support. */
  blocks: z.array(
    z.strictObject({
      name: z.string(),
      number: z.number(),
      baseAddress: z.number(),
      length: z.number(),
      fileOffset: z.number(),
      transferSize: z.number(),
    }),
  ),
  /** Where the app reads the bootloader with this grant: GET /user-vehicles/{id}/read-bootloader/{x}. */
  bootloaderPath: z.string().nullable(),
});
export type FlashAuthenticationAnswer = z.infer<typeof flashAuthenticationAnswerSchema>;

// ---------------------------------------------------------------------------
// Sessions: POST /user-vehicles/{id}/flash-logs (start), …/{logId}/steps, …/{logId}/end

export const flashSessionStartSchema = z.strictObject({
  grant: z.string().min(1, "grant is the token of a flash grant").max(512),
  /** The identity read just before writing (recorded as the before-flash snapshot). */
  vin: vinSchema,
  ecu: ecuIdentitySchema,
  adapter: adapterSchema,
  appVersion: z.string().trim().min(1).max(32),
  batteryVolts: batteryVoltsSchema,
  faultCodes: faultCodesSchema.default([]),
  flashCounter: z.number().int().min(0).max(0xffff).optional(),
  programmingAttempts: z.number().int().min(0).max(0xffff).optional(),
  /** A recovery names the failed session it recovers, and for a resume the block it restarts at. */
  recoversId: z.uuid("recoversId must be a flash log's id").optional(),
  resumeFromBlock: z.number().int().min(0).max(255).optional(),
  startedAt: z.iso.datetime({ offset: true, error: "startedAt must be an ISO date-time" }).optional(),
});
export type FlashSessionStart = z.input<typeof flashSessionStartSchema>;

export const flashStepReportSchema = z.strictObject({
  /** The app's own number for the step, from 1: a step sent twice is stored once. */
  seq: z.number().int().min(1).max(1_000_000),
  step: z.enum(flashSteps, { error: `step must be one of ${flashSteps.join(", ")}` }),
  block: z.number().int().min(0).max(255).optional(),
  percent: z.number().min(0).max(100).optional(),
  status: z.enum(flashStepStatuses),
  at: z.iso.datetime({ offset: true, error: "at must be an ISO date-time" }),
  durationMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600 * 1000)
    .optional(),
  retries: z.number().int().min(0).max(1000).default(0),
  request: hexBytes("request", 4096).optional(),
  response: hexBytes("response", 4096).optional(),
  nrc: z.number().int().min(0).max(0xff).optional(),
  message: z.string().max(2000).default(""),
});
export type FlashStepReport = z.input<typeof flashStepReportSchema>;
export const flashStepsReportSchema = z.strictObject({ steps: z.array(flashStepReportSchema).min(1).max(500) });

export const flashSessionEndSchema = z.strictObject({
  result: z.enum(flashEndResults),
  message: z.string().trim().max(2000).default(""),
  /** The identity read after the reset (the after-flash snapshot); absent when the ECU did not answer. */
  ecu: ecuIdentitySchema.optional(),
  batteryVolts: batteryVoltsSchema.optional(),
  faultCodes: faultCodesSchema.optional(),
  flashCounter: z.number().int().min(0).max(0xffff).optional(),
  programmingAttempts: z.number().int().min(0).max(0xffff).optional(),
  endedAt: z.iso.datetime({ offset: true, error: "endedAt must be an ISO date-time" }).optional(),
});
export type FlashSessionEnd = z.input<typeof flashSessionEndSchema>;

export const flashLogStepSchema = z.strictObject({
  seq: z.number(),
  step: z.enum(flashSteps),
  block: z.number().nullable(),
  percent: z.number().nullable(),
  status: z.enum(flashStepStatuses),
  at: z.string(),
  durationMs: z.number().nullable(),
  retries: z.number(),
  request: z.string().nullable(),
  response: z.string().nullable(),
  nrc: z.number().nullable(),
  /** "0x35 invalidKey" */
  nrcName: z.string().nullable(),
  message: z.string(),
});
export type FlashLogStep = z.infer<typeof flashLogStepSchema>;

export const flashLogCreateSchema = z
  .strictObject({
    /** The baked file that was written; leave out when the vehicle's own stock read was written back. */
    bakedTuneFileId: z.uuid("bakedTuneFileId must be a baked tune file's id").optional(),
    /** SHA-256 of the bytes written, as the app computed it: checked against the bake or the stock read. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "sha256 must be 64 hexadecimal digits")
      .transform((value) => value.toLowerCase())
      .optional(),
    result: z.enum(reportedFlashResults, { error: `result must be one of ${reportedFlashResults.join(", ")}` }),
    /** What went wrong, as the app saw it (a negative response code, a lost connection). */
    message: z.string().trim().max(2000, "message is at most 2000 characters").default(""),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600 * 1000)
      .optional(),
    /** When the flash ended, if the app reports it later than it happened (offline). */
    flashedAt: z.iso
      .datetime({ offset: true, error: "flashedAt must be an ISO date-time" })
      .refine((v) => storable("timestamp", v), "flashedAt must be in the years 0001 to 9999")
      .optional(),
  })
  .refine((value) => value.bakedTuneFileId !== undefined || value.sha256 !== undefined, {
    message: "send bakedTuneFileId, or sha256 when the stock read was written back",
    path: ["bakedTuneFileId"],
  });
export type FlashLogCreate = z.input<typeof flashLogCreateSchema>;

const ecuIdentityAnswer = z.record(z.string(), z.string().nullable());

export const flashLogSchema = z.strictObject({
  id: z.string(),
  vehicleId: z.string(),
  /** Null for a stock restore, or once the bake was deleted (the log stays). */
  bakedTuneFileId: z.string().nullable(),
  tuneFileId: z.string().nullable(),
  tuneTitle: z.string().nullable(),
  tuneVersion: z.number().nullable(),
  /** "tune" wrote a bake, "stock" the vehicle's own read. */
  kind: z.enum(["tune", "stock"]),
  sha256: z.string(),
  result: z.enum(flashResults),
  message: z.string(),
  durationMs: z.number().nullable(),
  flashedAt: z.string(),
  endedAt: z.string().nullable(),
  lastReportAt: z.string(),
  reportedBy: z.string(),
  grantId: z.string().nullable(),
  recoversId: z.string().nullable(),
  /** The later session that recovered this one, if any. */
  recoveredById: z.string().nullable(),
  resumeFromBlock: z.number().nullable(),
  firmwareId: z.string().nullable(),
  ecuFamily: z.string().nullable(),
  adapterKind: z.string().nullable(),
  adapterFirmware: z.string().nullable(),
  appVersion: z.string().nullable(),
  batteryStartVolts: z.number().nullable(),
  batteryEndVolts: z.number().nullable(),
  identityBefore: ecuIdentityAnswer.nullable(),
  identityAfter: ecuIdentityAnswer.nullable(),
  failedStep: z.string().nullable(),
  failedBlock: z.number().nullable(),
  failedNrc: z.number().nullable(),
  /** The last step reported: what a running session is doing now. */
  progress: z
    .strictObject({
      step: z.enum(flashSteps),
      block: z.number().nullable(),
      percent: z.number().nullable(),
      status: z.enum(flashStepStatuses),
    })
    .nullable(),
});
export type FlashLog = z.infer<typeof flashLogSchema>;

/** `GET /flash-log/{id}` and the support bundle: the session with its steps, snapshots and the grant's facts. */
export const flashSessionDetailSchema = z.strictObject({
  log: flashLogSchema,
  vehicle: z.strictObject({ id: z.string(), name: z.string(), vin: z.string().nullable(), ownerUid: z.string() }),
  steps: z.array(flashLogStepSchema),
  snapshots: z.array(snapshotSchema),
  grant: z
    .strictObject({
      id: z.string(),
      kind: z.enum(["tune", "stock"]),
      sha256: z.string(),
      vin: z.string(),
      ecuSerial: z.string(),
      softwareId: z.string(),
      firmwareId: z.string(),
      batteryVolts: z.number(),
      createdAt: z.string(),
      expiresAt: z.string(),
      usedAt: z.string().nullable(),
    })
    .nullable(),
});
export type FlashSessionDetail = z.infer<typeof flashSessionDetailSchema>;

/** `GET /flash-log` (admins; dealers for the vehicles they manage). */
export const flashLogList = {
  sort: ["flashedAt", "result", "firmwareId", "durationMs"],
  filter: [
    "result",
    "kind",
    "vehicleId",
    "firmwareId",
    "ecuFamily",
    "adapterKind",
    "appVersion",
    "failedStep",
    "failedNrc",
    "flashedAt",
  ],
} as const;

/** Events of `GET /user-vehicles/{id}/listen`: the vehicle's flash sessions as they change, and each step. */
export const vehicleEventNames = {
  flashLog: "flash-log",
  flashStep: "flash-step",
  preflight: "preflight",
  order: "order",
} as const;
/** An order for the car changed (paid, refunded, ended): the page reads its licences again. */
export const orderEventSchema = z.strictObject({
  id: z.string(),
  status: z.string(),
  tuneFileId: z.string().nullable(),
});
export const flashStepEventSchema = z.strictObject({ flashLogId: z.string(), step: flashLogStepSchema });
