/**
 * Flashing analytics for admins, read from the rollup `flash_stats_daily` (kept by a trigger on
 * flash_logs), so an answer over a year of a million sessions reads a few hundred thousand rows
 * at most rather than every session. Definitions: contracts/analytics.ts.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  type AnalyticsCounts,
  type AnalyticsFilter,
  analyticsFilterSchema,
  type FlashingOverview,
  flashingOccurrencesSchema,
  flashingOvertimeSchema,
  flashingOverviewSchema,
  MAX_ANALYTICS_DAYS,
  occurrencesQuerySchema,
  overtimeQuerySchema,
} from "../../contracts/analytics";
import { apiRoutes } from "../../contracts/api-paths";
import { NEGATIVE_RESPONSES, negativeResponseLabel } from "../../contracts/flash-logs";
import { DURATION_BUCKETS, histogramPercentile } from "../../domain/flashing/duration-histogram";
import type { AppContext } from "../context";
import { flashFailuresDaily as failures, flashStatsDaily as stats } from "../db/schema";
import { badRequest } from "../errors";
import type { ZodTypeProvider } from "../http/zod";

const admin = { role: "admin" as const };
const DAY_MS = 86_400_000;

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The range asked for (default: the last 365 days), refused when reversed or too long. */
function rangeOf(query: AnalyticsFilter): { from: string; to: string } {
  const to = query.to ?? day(new Date());
  const from = query.from ?? day(new Date(Date.parse(to) - 364 * DAY_MS));
  if (from > to) throw badRequest("Invalid query", "from is after to", [{ path: "from", message: "from is after to" }]);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_ANALYTICS_DAYS) {
    throw badRequest("Invalid query", `a range is at most ${MAX_ANALYTICS_DAYS} days`, [
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

export async function analyticsRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const rows = async <Row>(query: SQL) => ((await ctx.db.execute(query)) as unknown as { rows: Row[] }).rows;

  app.get(
    `/${apiRoutes.analytics.overview()}`,
    { config: admin, schema: { querystring: analyticsFilterSchema, response: { 200: flashingOverviewSchema } } },
    async (request): Promise<FlashingOverview> => {
      const range = rangeOf(request.query);
      const where = whereOf(request.query, range);
      // Three reads side by side, each on its own connection (PostgreSQL): the counts and their
      // breakdowns in one pass (grouping sets), the durations, and where failures failed.
      const [grouped, [histogram], failed] = await Promise.all([
        rows<CountRow & { g: string; key: string | null }>(sql`
        SELECT CASE WHEN grouping(${stats.ecuFamily}) = 0 THEN 'family' WHEN grouping(${stats.adapterKind}) = 0 THEN 'adapter'
                    WHEN grouping(${stats.appVersion}) = 0 THEN 'app' ELSE 'total' END AS g,
               coalesce(${stats.ecuFamily}, ${stats.adapterKind}, ${stats.appVersion}) AS key, ${countColumns}
        FROM ${stats} WHERE ${where}
        GROUP BY GROUPING SETS ((), (${stats.ecuFamily}), (${stats.adapterKind}), (${stats.appVersion}))`),
        rows<Record<string, unknown>>(sql`SELECT ${histogramColumns} FROM ${stats} WHERE ${where}`),
        rows<{ g: string; key: string; count: number }>(sql`
        SELECT CASE WHEN grouping(${failures.failedStep}) = 0 THEN 'step' ELSE 'nrc' END AS g,
               coalesce(${failures.failedStep}, ${failures.failedNrc}::text) AS key, sum(${failures.sessions})::int AS count
        FROM ${failures} WHERE ${whereOf(request.query, range, failures)}
        GROUP BY GROUPING SETS ((${failures.failedStep}), (${failures.failedNrc}))`),
      ]);
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
        failuresByStep: failed
          .filter((row) => row.g === "step" && row.key && Number(row.count) > 0)
          .map((row) => ({ step: row.key, count: Number(row.count) }))
          .sort((a, b) => b.count - a.count || a.step.localeCompare(b.step)),
        topNegativeResponses: failed
          .filter((row) => row.g === "nrc")
          .map((row) => ({ nrc: Number(row.key), count: Number(row.count) }))
          .filter((row) => row.nrc >= 0 && row.count > 0)
          .sort((a, b) => b.count - a.count || a.nrc - b.nrc)
          .slice(0, 10)
          .map((row) => ({
            ...row,
            label: negativeResponseLabel(row.nrc),
            cause: NEGATIVE_RESPONSES[row.nrc]?.cause ?? null,
          })),
        byEcuFamily: breakdown("family"),
        byAdapter: breakdown("adapter"),
        byAppVersion: breakdown("app"),
      };
    },
  );

  app.get(
    "/analytics/flashing-occurences",
    { config: admin, schema: { querystring: occurrencesQuerySchema, response: { 200: flashingOccurrencesSchema } } },
    async (request) => {
      const range = rangeOf(request.query);
      const { dimension } = request.query;
      let data: Array<CountRow & { key: string }>;
      if (dimension === "result") {
        const [totals] = await rows<CountRow>(
          sql`SELECT ${countColumns} FROM ${stats} WHERE ${whereOf(request.query, range)}`,
        );
        const counts = countsOf(totals);
        data = (["success", "failed", "recovered", "abandoned", "aborted"] as const).map((result) => {
          const only = { sessions: counts[result], success: 0, failed: 0, recovered: 0, abandoned: 0, aborted: 0 };
          return { key: result, ...only, [result]: counts[result] };
        });
      } else if (dimension === "failedStep" || dimension === "failedNrc") {
        // Only failing sessions fail somewhere: the failures' rollup answers these.
        const column = sql.raw(DIMENSION_COLUMNS[dimension]);
        data = await rows(
          sql`SELECT ${column}::text AS key, ${failureCountColumns} FROM ${failures} WHERE ${whereOf(request.query, range, failures)} GROUP BY 1`,
        );
      } else {
        const column = sql.raw(DIMENSION_COLUMNS[dimension]);
        data = await rows(
          sql`SELECT ${column}::text AS key, ${countColumns} FROM ${stats} WHERE ${whereOf(request.query, range)} GROUP BY 1`,
        );
      }
      return {
        range,
        dimension,
        data: data
          .map((row) => ({ key: row.key === "" || row.key === "-1" ? "none" : String(row.key), ...countsOf(row) }))
          .filter((row) => row.sessions > 0)
          .sort((a, b) => b.sessions - a.sessions || a.key.localeCompare(b.key)),
      };
    },
  );

  app.get(
    `/${apiRoutes.analytics.overtime()}`,
    { config: admin, schema: { querystring: overtimeQuerySchema, response: { 200: flashingOvertimeSchema } } },
    async (request) => {
      const range = rangeOf(request.query);
      const bucket = sql.raw(`'${request.query.bucket}'`);
      const data = await rows<CountRow & Record<string, unknown> & { start: string }>(sql`
      SELECT to_char(date_trunc(${bucket}, ${stats.day}::timestamp), 'YYYY-MM-DD') AS start, ${countColumns}, ${histogramColumns}
      FROM ${stats} WHERE ${whereOf(request.query, range)} GROUP BY 1 ORDER BY 1`);
      return {
        range,
        bucket: request.query.bucket,
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
    },
  );
}
