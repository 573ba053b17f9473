/**
 * Flashing analytics for admins, read from the rollup `flash_stats_daily` (kept by a trigger on
 * flash_logs), so an answer over a year of a million sessions reads a few hundred thousand rows
 * at most rather than every session: the overview, the sessions counted by one dimension, and
 * the counts over time. Definitions: contracts/analytics.ts.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type AnalyticsCounts,
  type AnalyticsFilter,
  type FlashingOccurrences,
  type FlashingOvertime,
  type FlashingOverview,
  MAX_ANALYTICS_DAYS,
  type occurrencesQuerySchema,
  type overtimeQuerySchema,
} from "../../contracts/analytics";
import { NEGATIVE_RESPONSES, negativeResponseLabel } from "../../contracts/flash-logs";
import { DURATION_BUCKETS, histogramPercentile } from "../../domain/flashing/duration-histogram";
import type { Db } from "../db/handle";
import { flashFailuresDaily as failures, flashStatsDaily as stats } from "../db/schema";
import { invalid } from "./errors";

const DAY_MS = 86_400_000;

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The range asked for (default: the last 365 days), refused when reversed or too long. */
function rangeOf(query: AnalyticsFilter): { from: string; to: string } {
  const to = query.to ?? day(new Date());
  const from = query.from ?? day(new Date(Date.parse(to) - 364 * DAY_MS));
  if (from > to) throw invalid("Invalid query", "from is after to", [{ path: "from", message: "from is after to" }]);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_ANALYTICS_DAYS) {
    throw invalid("Invalid query", `a range is at most ${MAX_ANALYTICS_DAYS} days`, [
      { path: "from", message: `a range is at most ${MAX_ANALYTICS_DAYS} days` },
    ]);
  }
  return { from, to };
}

/** The range and filters on either rollup (both carry the same key columns). */
function whereOf(
  query: AnalyticsFilter,
  range: { from: string; to: string },
  table: typeof stats | typeof failures = stats,
): SQL | undefined {
  return and(
    sql`${table.day} BETWEEN ${range.from}::date AND ${range.to}::date`,
    query.firmwareId ? eq(table.firmwareId, query.firmwareId) : undefined,
    query.ecuFamily ? eq(table.ecuFamily, query.ecuFamily) : undefined,
    query.adapterKind ? eq(table.adapterKind, query.adapterKind) : undefined,
    query.appVersion ? eq(table.appVersion, query.appVersion) : undefined,
    query.kind ? eq(table.kind, query.kind) : undefined,
  );
}

/** The per-result sums every breakdown reads, as SQL select items. */
const countColumns = sql`coalesce(sum(${stats.success} + ${stats.failed} + ${stats.recovered} + ${stats.abandoned} + ${stats.aborted}), 0)::int AS sessions,
  coalesce(sum(${stats.success}), 0)::int AS success, coalesce(sum(${stats.failed}), 0)::int AS failed,
  coalesce(sum(${stats.recovered}), 0)::int AS recovered, coalesce(sum(${stats.abandoned}), 0)::int AS abandoned,
  coalesce(sum(${stats.aborted}), 0)::int AS aborted`;

/** The same sums over the failures' rollup, where each row holds one result's sessions. */
const failureCountColumns = sql`coalesce(sum(${failures.sessions}), 0)::int AS sessions, 0 AS success,
  coalesce(sum(${failures.sessions}) FILTER (WHERE ${failures.result} = 'failed'), 0)::int AS failed,
  coalesce(sum(${failures.sessions}) FILTER (WHERE ${failures.result} = 'recovered'), 0)::int AS recovered,
  coalesce(sum(${failures.sessions}) FILTER (WHERE ${failures.result} = 'abandoned'), 0)::int AS abandoned, 0 AS aborted`;

type CountRow = {
  sessions: number;
  success: number;
  failed: number;
  recovered: number;
  abandoned: number;
  aborted: number;
};

const countsOf = (row: CountRow | undefined): AnalyticsCounts => {
  const c = {
    sessions: Number(row?.sessions ?? 0),
    success: Number(row?.success ?? 0),
    failed: Number(row?.failed ?? 0),
    recovered: Number(row?.recovered ?? 0),
    abandoned: Number(row?.abandoned ?? 0),
    aborted: Number(row?.aborted ?? 0),
  };
  const wrote = c.success + c.failed + c.recovered + c.abandoned;
  return { ...c, successRate: wrote > 0 ? c.success / wrote : null };
};

/** The successful sessions' durations, bucket by bucket, as SQL select items. */
const histogramColumns = sql.join(
  Array.from({ length: DURATION_BUCKETS }, (_, k) =>
    sql.raw(`coalesce(sum(duration_histogram[${k + 1}]), 0)::int AS h${k}`),
  ),
  sql`, `,
);
const histogramOf = (row: Record<string, unknown>) =>
  Array.from({ length: DURATION_BUCKETS }, (_, k) => Number(row[`h${k}`] ?? 0));

const DIMENSION_COLUMNS = {
  result: "result",
  failedStep: "failed_step",
  failedNrc: "failed_nrc",
  firmwareId: "firmware_id",
  ecuFamily: "ecu_family",
  adapterKind: "adapter_kind",
  appVersion: "app_version",
  kind: "kind",
} as const;

type Range = { from: string; to: string };
type FailureRow = { g: string; key: string | null; count: number };

const rows = async <Row>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/**
 * Three reads side by side, each on its own connection (PostgreSQL): the counts and their
 * breakdowns in one pass (grouping sets), the durations, and where failures failed.
 */
function readOverview(db: Db, query: AnalyticsFilter, range: Range) {
  const where = whereOf(query, range);
  return Promise.all([
    rows<CountRow & { g: string; key: string | null }>(
      db,
      sql`
        SELECT CASE WHEN grouping(${stats.ecuFamily}) = 0 THEN 'family' WHEN grouping(${stats.adapterKind}) = 0 THEN 'adapter'
                    WHEN grouping(${stats.appVersion}) = 0 THEN 'app' ELSE 'total' END AS g,
               coalesce(${stats.ecuFamily}, ${stats.adapterKind}, ${stats.appVersion}) AS key, ${countColumns}
        FROM ${stats} WHERE ${where}
        GROUP BY GROUPING SETS ((), (${stats.ecuFamily}), (${stats.adapterKind}), (${stats.appVersion}))`,
    ),
    rows<Record<string, unknown>>(db, sql`SELECT ${histogramColumns} FROM ${stats} WHERE ${where}`),
    rows<FailureRow>(
      db,
      sql`
        SELECT CASE WHEN grouping(${failures.failedStep}) = 0 THEN 'step' ELSE 'nrc' END AS g,
               coalesce(${failures.failedStep}, ${failures.failedNrc}::text) AS key, sum(${failures.sessions})::int AS count
        FROM ${failures} WHERE ${whereOf(query, range, failures)}
        GROUP BY GROUPING SETS ((${failures.failedStep}), (${failures.failedNrc}))`,
    ),
  ]);
}

/** The steps failures failed at, most first. */
const failuresByStep = (failed: FailureRow[]) =>
  failed
    .filter((row) => row.g === "step" && row.key && Number(row.count) > 0)
    .map((row) => ({ step: row.key as string, count: Number(row.count) }))
    .sort((a, b) => b.count - a.count || a.step.localeCompare(b.step));

/** The ten negative responses failures met most, with what they mean. */
const topNegativeResponses = (failed: FailureRow[]) =>
  failed
    .filter((row) => row.g === "nrc")
    .map((row) => ({ nrc: Number(row.key), count: Number(row.count) }))
    .filter((row) => row.nrc >= 0 && row.count > 0)
    .sort((a, b) => b.count - a.count || a.nrc - b.nrc)
    .slice(0, 10)
    .map((row) => ({
      ...row,
      label: negativeResponseLabel(row.nrc),
      cause: NEGATIVE_RESPONSES[row.nrc]?.cause ?? null,
    }));

/** Totals, durations, where failures failed, and the counts by ECU family, adapter and app version. */
export async function flashingOverview(db: Db, query: AnalyticsFilter): Promise<FlashingOverview> {
  const range = rangeOf(query);
  const [grouped, [histogram], failed] = await readOverview(db, query, range);
  const group = (g: string) => grouped.filter((row) => row.g === g);
  const breakdown = (g: string) =>
    group(g)
      .map((row) => ({ key: String(row.key ?? "") || "unknown", ...countsOf(row) }))
      .sort((a, b) => b.sessions - a.sessions || a.key.localeCompare(b.key));
  const durations = histogramOf(histogram ?? {});
  return {
    range,
    totals: countsOf(group("total")[0]),
    durations: { p50Ms: histogramPercentile(durations, 0.5), p95Ms: histogramPercentile(durations, 0.95) },
    failuresByStep: failuresByStep(failed),
    topNegativeResponses: topNegativeResponses(failed),
    byEcuFamily: breakdown("family"),
    byAdapter: breakdown("adapter"),
    byAppVersion: breakdown("app"),
  };
}

type OccurrencesQuery = z.output<typeof occurrencesQuerySchema>;

/** The sessions' counts per value of one dimension, before they are named and sorted. */
async function occurrenceRows(
  db: Db,
  query: OccurrencesQuery,
  range: Range,
): Promise<Array<CountRow & { key: string }>> {
  const { dimension } = query;
  if (dimension === "result") {
    const [totals] = await rows<CountRow>(db, sql`SELECT ${countColumns} FROM ${stats} WHERE ${whereOf(query, range)}`);
    const counts = countsOf(totals);
    return (["success", "failed", "recovered", "abandoned", "aborted"] as const).map((result) => {
      const only = { sessions: counts[result], success: 0, failed: 0, recovered: 0, abandoned: 0, aborted: 0 };
      return { key: result, ...only, [result]: counts[result] };
    });
  }
  const column = sql.raw(DIMENSION_COLUMNS[dimension]);
  if (dimension === "failedStep" || dimension === "failedNrc") {
    // Only failing sessions fail somewhere: the failures' rollup answers these.
    return rows(
      db,
      sql`SELECT ${column}::text AS key, ${failureCountColumns} FROM ${failures} WHERE ${whereOf(query, range, failures)} GROUP BY 1`,
    );
  }
  return rows(
    db,
    sql`SELECT ${column}::text AS key, ${countColumns} FROM ${stats} WHERE ${whereOf(query, range)} GROUP BY 1`,
  );
}

/** The sessions counted by one dimension (result, failed step, firmware…), most first. */
export async function flashingOccurrences(db: Db, query: OccurrencesQuery): Promise<FlashingOccurrences> {
  const range = rangeOf(query);
  const data = await occurrenceRows(db, query, range);
  return {
    range,
    dimension: query.dimension,
    data: data
      .map((row) => ({ key: row.key === "" || row.key === "-1" ? "none" : String(row.key), ...countsOf(row) }))
      .filter((row) => row.sessions > 0)
      .sort((a, b) => b.sessions - a.sessions || a.key.localeCompare(b.key)),
  };
}

/** The counts and durations per day, week or month of the range. */
export async function flashingOvertime(db: Db, query: z.output<typeof overtimeQuerySchema>): Promise<FlashingOvertime> {
  const range = rangeOf(query);
  const bucket = sql.raw(`'${query.bucket}'`);
  const data = await rows<CountRow & Record<string, unknown> & { start: string }>(
    db,
    sql`
      SELECT to_char(date_trunc(${bucket}, ${stats.day}::timestamp), 'YYYY-MM-DD') AS start, ${countColumns}, ${histogramColumns}
      FROM ${stats} WHERE ${whereOf(query, range)} GROUP BY 1 ORDER BY 1`,
  );
  return {
    range,
    bucket: query.bucket,
    data: data.map((row) => {
      const durations = histogramOf(row);
      return {
        start: row.start,
        ...countsOf(row),
        p50Ms: histogramPercentile(durations, 0.5),
        p95Ms: histogramPercentile(durations, 0.95),
      };
    }),
  };
}
