/**
 * Flashing analytics (spec: GET /analytics/flashing-overview, /flashing-occurences,
 * /flashing-overtime): how flashes end, where they fail, which negative responses the ECUs
 * answer, by firmware family, adapter and app version, how long they take, over time.
 *
 * Counted: ended sessions (a running one counts once it ends), by the day they started (UTC).
 * Success rate: successful sessions over the sessions that wrote — success, failed, recovered
 * (failed, then brought back by a later session) and abandoned; aborted ones (the app gave up
 * before writing) are left out. Durations are of successful sessions, read from a histogram of
 * buckets 25 % wide (10 s × 1.25^k): a percentile is the middle of its bucket, within ±12 %.
 */
import { z } from "zod";

const isoDay = (label: string) => z.iso.date(`${label} is a day, YYYY-MM-DD`);
const dimensionValue = (label: string) =>
  z.string().trim().min(1, `${label} is empty`).max(64, `${label} is at most 64 characters`);

export const analyticsFilterSchema = z.strictObject({
  /** First and last day (UTC, inclusive); by default the last 365 days. */
  from: isoDay("from").optional(),
  to: isoDay("to").optional(),
  firmwareId: dimensionValue("firmwareId").optional(),
  ecuFamily: dimensionValue("ecuFamily").optional(),
  adapterKind: dimensionValue("adapterKind").optional(),
  appVersion: dimensionValue("appVersion").optional(),
  kind: z.enum(["tune", "stock"]).optional(),
});
export type AnalyticsFilter = z.infer<typeof analyticsFilterSchema>;

/** The longest range one answer covers. */
export const MAX_ANALYTICS_DAYS = 3 * 366;

export const analyticsDimensions = [
  "result",
  "failedStep",
  "failedNrc",
  "firmwareId",
  "ecuFamily",
  "adapterKind",
  "appVersion",
  "kind",
] as const;
export type AnalyticsDimension = (typeof analyticsDimensions)[number];
export const occurrencesQuerySchema = analyticsFilterSchema.extend({
  dimension: z.enum(analyticsDimensions).default("result"),
});
export const overtimeBuckets = ["day", "week", "month"] as const;
export const overtimeQuerySchema = analyticsFilterSchema.extend({ bucket: z.enum(overtimeBuckets).default("day") });

const rangeSchema = z.strictObject({ from: z.string(), to: z.string() });
const countsSchema = z.strictObject({
  sessions: z.number(),
  success: z.number(),
  failed: z.number(),
  recovered: z.number(),
  abandoned: z.number(),
  aborted: z.number(),
  /** null when no session wrote. */
  successRate: z.number().nullable(),
});
export type AnalyticsCounts = z.infer<typeof countsSchema>;
const durationsSchema = z.strictObject({ p50Ms: z.number().nullable(), p95Ms: z.number().nullable() });
const breakdownSchema = z.array(countsSchema.extend({ key: z.string() }));

export const flashingOverviewSchema = z.strictObject({
  range: rangeSchema,
  totals: countsSchema,
  durations: durationsSchema,
  failuresByStep: z.array(z.strictObject({ step: z.string(), count: z.number() })),
  topNegativeResponses: z.array(
    z.strictObject({ nrc: z.number(), label: z.string(), cause: z.string().nullable(), count: z.number() }),
  ),
  byEcuFamily: breakdownSchema,
  byAdapter: breakdownSchema,
  byAppVersion: breakdownSchema,
});
export type FlashingOverview = z.infer<typeof flashingOverviewSchema>;

export const flashingOccurrencesSchema = z.strictObject({
  range: rangeSchema,
  dimension: z.enum(analyticsDimensions),
  data: breakdownSchema,
});
export type FlashingOccurrences = z.infer<typeof flashingOccurrencesSchema>;

export const flashingOvertimeSchema = z.strictObject({
  range: rangeSchema,
  bucket: z.enum(overtimeBuckets),
  data: z.array(countsSchema.extend({ start: z.string() }).extend(durationsSchema.shape)),
});
export type FlashingOvertime = z.infer<typeof flashingOvertimeSchema>;
