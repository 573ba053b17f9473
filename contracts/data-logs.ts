/**
 * Data logs: the request bodies the server validates and the answers the app reads.
 */
import { z } from "zod";
import { sharedLayoutSchema } from "./data-log-layouts";
import { storable } from "./list-query";
import { listResponseSchema } from "./list-response";

/** Vehicle inputs of the virtual dyno, SI units. */
export const dynoProfileSchema = z.strictObject({
  massKg: z.number().min(100).max(20_000),
  dragCoefficient: z.number().min(0.05).max(2),
  frontalAreaM2: z.number().min(0.3).max(20),
  rollingCoefficient: z.number().min(0).max(0.1),
  tyre: z.strictObject({
    widthMm: z.number().min(100).max(500),
    aspectPercent: z.number().min(10).max(100),
    rimInches: z.number().min(10).max(30),
  }),
  gearRatios: z.array(z.number().min(0.3).max(10)).min(1).max(12),
  finalDrive: z.number().min(1).max(10),
  /** Fraction of crank power lost before the wheels, 0.15 = 15 %. */
  drivelineLoss: z.number().min(0).max(0.5),
});
export type DynoProfile = z.infer<typeof dynoProfileSchema>;

/** A mid-size hatchback: where the dyno panel starts until the user enters the car's own figures. */
export const DEFAULT_DYNO_PROFILE: DynoProfile = {
  massKg: 1500,
  dragCoefficient: 0.31,
  frontalAreaM2: 2.2,
  rollingCoefficient: 0.012,
  tyre: { widthMm: 225, aspectPercent: 40, rimInches: 18 },
  gearRatios: [3.46, 2.05, 1.3, 1.03, 0.84, 0.69],
  finalDrive: 3.94,
  drivelineLoss: 0.15,
};

export const dataLogPatchSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  notes: z.string().max(20_000).optional(),
  vehicleId: z.uuid().nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  /** Kept on the log's vehicle when it has one, else on the log. */
  dynoProfile: dynoProfileSchema.nullable().optional(),
});
export type DataLogPatch = z.infer<typeof dataLogPatchSchema>;

export const dataLogShareSchema = z.strictObject({
  /** Channel ids the link shows; empty shows every channel. */
  channels: z.array(z.string().min(1).max(200)).max(256).default([]),
  /** The panes the link opens with, under their layout's name; the viewer's default panes when absent. */
  layout: sharedLayoutSchema.nullable().optional(),
  /** No expiry when absent or null. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .refine((v) => storable("timestamp", v), "expiresAt must be in the years 0001 to 9999")
    .nullable()
    .optional(),
});
export type DataLogShareInput = z.input<typeof dataLogShareSchema>;

/** A moment the server stamped, as the API writes it: ISO 8601 in UTC (`Date.prototype.toISOString`). */
const isoDateTime = z.iso.datetime();

/** What a channel measures, as a tuner names it (read from its name and unit by domain/logs/roles.ts). */
export const CHANNEL_ROLES = [
  "engineSpeed",
  "vehicleSpeed",
  "gear",
  "throttle",
  "pedal",
  "boost",
  "boostTarget",
  "timing",
  "knockCorrection",
  "mixture",
  "mixtureTarget",
  "fuelTrimShort",
  "fuelTrimLong",
  "intakeAirTemp",
  "coolantTemp",
  "oilTemp",
  "airMass",
  "load",
  "injectorDuty",
  "railPressure",
  "wastegateDuty",
  "ethanolContent",
] as const;

/** The kind of unit a role's values are in, so a display unit can be chosen per role. */
export const ROLE_FAMILIES = [
  "speed",
  "rotation",
  "pressure",
  "temperature",
  "mixture",
  "percent",
  "angle",
  "mass-flow",
  "count",
  "none",
] as const;

export const channelRoleSchema = z.strictObject({
  role: z.enum(CHANNEL_ROLES),
  family: z.enum(ROLE_FAMILIES),
  /** Per-cylinder channels (timing, knock correction): which cylinder. */
  cylinder: z.number().int().optional(),
  /** Per-bank channels (mixture, trims): which bank. */
  bank: z.number().int().optional(),
  /** Pressures: absolute (MAP) or relative to the atmosphere (boost gauge). */
  pressure: z.enum(["absolute", "relative"]).optional(),
  /** Mixtures: as an air-fuel ratio or as lambda. */
  mixture: z.enum(["afr", "lambda"]).optional(),
});

export const dataLogChannelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  unit: z.string(),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  /** What the channel measures; null when its name says nothing a tuner opens a log for. */
  role: channelRoleSchema.nullable(),
});
export type DataLogChannel = z.infer<typeof dataLogChannelSchema>;

const dataLogSummaryFields = {
  id: z.string(),
  title: z.string(),
  format: z.string(),
  rowCount: z.number().int().min(0),
  durationSeconds: z.number(),
  /** As the log file wrote it (not necessarily ISO 8601); null when it did not say. */
  startedAt: z.string().nullable(),
  vehicleId: z.string().nullable(),
  fileName: z.string(),
  fileSize: z.number().int().min(0),
  tags: z.array(z.string()),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

export const dataLogSummarySchema = z.strictObject({ ...dataLogSummaryFields, channelCount: z.number().int().min(0) });
export type DataLogSummary = z.infer<typeof dataLogSummarySchema>;

/** `GET /data-logs`: a page of the caller's logs. */
export const dataLogPageSchema = listResponseSchema(dataLogSummarySchema);

export const dataLogDetailSchema = z.strictObject({
  ...dataLogSummaryFields,
  notes: z.string(),
  meta: z.record(z.string(), z.unknown()),
  channels: z.array(dataLogChannelSchema),
  warnings: z.array(z.string()),
  /** The vehicle's profile when the log has a vehicle, else the log's own. */
  dynoProfile: dynoProfileSchema.nullable(),
});
export type DataLogDetail = z.infer<typeof dataLogDetailSchema>;

/**
 * A catalogue computed descriptor as the analysis view offers it to anyone signed in: what to
 * evaluate and how to show it, without the catalogue's bookkeeping.
 */
export const logComputedDescriptorSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  unit: z.string(),
  expression: z.string(),
  /** Decimals to show the values with. */
  decimals: z.number().int(),
  /** The channel variables the expression reads. */
  variables: z.array(z.string()),
});
export type LogComputedDescriptor = z.infer<typeof logComputedDescriptorSchema>;

/** `GET /data-logs/computed-descriptors`: all of them (up to a cap), with their count. */
export const logComputedDescriptorsSchema = z.strictObject({
  data: z.array(logComputedDescriptorSchema),
  total: z.number().int().min(0),
});

export const dataLogShareAnswerSchema = z.strictObject({
  id: z.string(),
  logId: z.string(),
  channels: z.array(z.string()),
  layout: sharedLayoutSchema.nullable(),
  expiresAt: isoDateTime.nullable(),
  revokedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type DataLogShare = z.infer<typeof dataLogShareAnswerSchema>;

/** `GET /data-logs/{id}/shares`: every share of a log, in one page. */
export const dataLogSharePageSchema = listResponseSchema(dataLogShareAnswerSchema);

/** The answer to creating a share: the only time the token is shown (the server keeps its hash). */
export const createdDataLogShareSchema = dataLogShareAnswerSchema.extend({ token: z.string() });
export type CreatedDataLogShare = z.infer<typeof createdDataLogShareSchema>;

/** What a share link resolves to: the log as the owner chose to show it. */
export const resolvedDataLogShareSchema = z.strictObject({
  share: z.strictObject({
    channels: z.array(z.string()),
    layout: sharedLayoutSchema.nullable(),
    expiresAt: isoDateTime.nullable(),
  }),
  log: dataLogDetailSchema.pick({
    id: true,
    title: true,
    format: true,
    rowCount: true,
    durationSeconds: true,
    startedAt: true,
    channels: true,
  }),
});
export type ResolvedDataLogShare = z.infer<typeof resolvedDataLogShareSchema>;

export const vehicleSharedLogSchema = z.strictObject({
  shareId: z.string(),
  logId: z.string(),
  title: z.string(),
  channels: z.array(z.string()),
  expiresAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type VehicleSharedLog = z.infer<typeof vehicleSharedLogSchema>;

/** `GET /user-vehicles/{id}/shared`: the live shares of the vehicle's logs, in one page. */
export const vehicleSharedLogPageSchema = listResponseSchema(vehicleSharedLogSchema);

/** A log shared beside another, and the seconds added to its times to place them on the other's axis. */
export interface SharedComparedLog {
  token: string;
  offset: number;
}

/**
 * The app's path of a share link; the channels chosen ride in the query, as datazap's do, and so
 * do the logs compared with it (`compare=token:offset,…`), each by its own share link's token.
 */
export function sharedLogPath(
  token: string,
  channels: readonly string[] = [],
  compared: readonly SharedComparedLog[] = [],
): string {
  const parts = [
    ...(channels.length ? [`channels=${channels.map(encodeURIComponent).join(",")}`] : []),
    ...(compared.length
      ? [`compare=${compared.map((log) => `${encodeURIComponent(log.token)}:${log.offset}`).join(",")}`]
      : []),
  ];
  return `/shared/logs/${token}${parts.length ? `?${parts.join("&")}` : ""}`;
}

/** The compared logs of a share link's `compare` parameter; malformed entries are left out. */
export function parseSharedCompared(param: string | null): SharedComparedLog[] {
  return (param ?? "").split(",").flatMap((entry) => {
    const at = entry.lastIndexOf(":");
    const offset = Number(entry.slice(at + 1));
    return at > 0 && Number.isFinite(offset) ? [{ token: entry.slice(0, at), offset }] : [];
  });
}
