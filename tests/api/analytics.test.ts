/**
 * Flashing analytics on a small known set of sessions, figures worked out by hand; the rollup
 * trigger kept exact through inserts, a session ending, a recovery and a deleted vehicle; roles
 * and bad queries.
 */
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DURATION_BUCKET_EDGES_MS } from "../../domain/flashing/duration-histogram";
import { flashFailuresDaily, flashLogs, flashStatsDaily, userVehicles } from "../../server/db/schema";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

type Session = Partial<typeof flashLogs.$inferInsert>;

describe.each(apiDatabases)("flashing analytics on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let vehicleId: string;
  let spareVehicleId: string;

  const insert = async (vehicle: string, sessions: Session[]) =>
    app.ctx.db
      .insert(flashLogs)
      .values(
        sessions.map((s) => ({
          vehicleId: vehicle,
          kind: "tune" as const,
          sha256: "a".repeat(64),
          result: "success" as const,
          reportedBy: customer.uid,
          ...s,
        })),
      )
      .returning();
  const overview = async (query = "from=2026-01-01&to=2026-12-31") => {
    const answer = await call("GET", `/analytics/flashing-overview?${query}`, admin);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer] = await createUsers(test, ["admin", "dealer", "customer"]);
    await call("GET", "/tune-files", customer);
    [{ id: vehicleId }, { id: spareVehicleId }] = await app.ctx.db
      .insert(userVehicles)
      .values([
        { ownerUid: customer.uid, name: "Stats car" },
        { ownerUid: customer.uid, name: "Spare car" },
      ])
      .returning();
    const simos = { firmwareId: "SC8S50", ecuFamily: "Simos18", adapterKind: "OBDLink MX+", appVersion: "2.4.0" };
    const med = { firmwareId: "MED17X", ecuFamily: "MED17", adapterKind: "ENET", appVersion: "2.3.1" };
    // March: 4 Simos successes of 60 s, one Simos failure at block 2 (0x72), one MED success of 300 s, one aborted.
    await insert(vehicleId, [
      ...Array.from({ length: 4 }, () => ({
        ...simos,
        flashedAt: new Date("2026-03-10T10:00:00Z"),
        durationMs: 60_000,
      })),
      {
        ...simos,
        flashedAt: new Date("2026-03-11T10:00:00Z"),
        result: "failed",
        failedStep: "block",
        failedBlock: 2,
        failedNrc: 0x72,
        durationMs: 40_000,
      },
      { ...med, flashedAt: new Date("2026-03-20T10:00:00Z"), durationMs: 300_000 },
      { ...med, flashedAt: new Date("2026-03-21T10:00:00Z"), result: "aborted" },
    ]);
    // April: a MED session abandoned in security access (0x35), and one still running (not counted).
    await insert(vehicleId, [
      {
        ...med,
        flashedAt: new Date("2026-04-02T10:00:00Z"),
        result: "abandoned",
        failedStep: "security-access",
        failedNrc: 0x35,
      },
      { ...med, flashedAt: new Date("2026-04-03T10:00:00Z"), result: "running" },
    ]);
  });
  afterAll(async () => test?.close());

  it("keeps the duration edges of the code and of the migration's trigger the same", () => {
    const migration = readFileSync("server/db/migrations/0014_flash-stats-trigger.sql", "utf8");
    const edges = /ARRAY\[([0-9,]+)\]::integer\[\]/.exec(migration)?.[1].split(",").map(Number);
    expect(edges).toEqual([...DURATION_BUCKET_EDGES_MS]);
  });

  it("answers the overview: totals, success rate, failures by step, top negative responses, breakdowns and durations", async () => {
    const body = await overview();
    expect(body.range).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    // 5 successes of 7 that wrote (success 5, failed 1, abandoned 1); the aborted one did not write.
    expect(body.totals).toEqual({
      sessions: 8,
      success: 5,
      failed: 1,
      recovered: 0,
      abandoned: 1,
      aborted: 1,
      successRate: 5 / 7,
    });
    expect(body.failuresByStep).toEqual([
      { step: "block", count: 1 },
      { step: "security-access", count: 1 },
    ]);
    expect(body.topNegativeResponses).toEqual([
      { nrc: 0x35, label: "0x35 invalidKey", cause: expect.any(String), count: 1 },
      { nrc: 0x72, label: "0x72 generalProgrammingFailure", cause: expect.any(String), count: 1 },
    ]);
    expect(body.byEcuFamily).toEqual([
      { key: "Simos18", sessions: 5, success: 4, failed: 1, recovered: 0, abandoned: 0, aborted: 0, successRate: 0.8 },
      { key: "MED17", sessions: 3, success: 1, failed: 0, recovered: 0, abandoned: 1, aborted: 1, successRate: 0.5 },
    ]);
    expect(body.byAdapter.map((row: { key: string }) => row.key)).toEqual(["OBDLink MX+", "ENET"]);
    expect(body.byAppVersion.map((row: { key: string }) => row.key)).toEqual(["2.4.0", "2.3.1"]);
    // Successful durations: four of 60 s and one of 300 s. p50 is 60 s and p95 300 s, each within the bucket's ±12 %.
    expect(Math.abs(body.durations.p50Ms - 60_000) / 60_000).toBeLessThan(0.12);
    expect(Math.abs(body.durations.p95Ms - 300_000) / 300_000).toBeLessThan(0.12);
  });

  it("filters by firmware family, adapter, app version, kind and range", async () => {
    expect((await overview("from=2026-01-01&to=2026-12-31&ecuFamily=MED17")).totals.sessions).toBe(3);
    expect((await overview("from=2026-01-01&to=2026-12-31&adapterKind=OBDLink%20MX%2B")).totals.sessions).toBe(5);
    expect((await overview("from=2026-01-01&to=2026-12-31&appVersion=2.3.1&kind=tune")).totals.sessions).toBe(3);
    expect((await overview("from=2026-01-01&to=2026-12-31&kind=stock")).totals).toMatchObject({
      sessions: 0,
      successRate: null,
    });
    expect((await overview("from=2026-04-01&to=2026-04-30")).totals).toMatchObject({
      sessions: 1,
      abandoned: 1,
      successRate: 0,
    });
  });

  it("counts occurrences by a chosen dimension: failing sessions by negative response, sessions by result", async () => {
    const answer = await call(
      "GET",
      "/analytics/flashing-occurences?from=2026-01-01&to=2026-12-31&dimension=failedNrc",
      admin,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(
      answer
        .json()
        .data.map((row: { key: string; sessions: number; failed: number; abandoned: number }) => [
          row.key,
          row.sessions,
          row.failed,
          row.abandoned,
        ]),
    ).toEqual([
      ["114", 1, 1, 0],
      ["53", 1, 0, 1],
    ]);
    const byResult = (await call("GET", "/analytics/flashing-occurences?from=2026-01-01&to=2026-12-31", admin)).json();
    expect(byResult.dimension).toBe("result");
    expect(byResult.data.map((row: { key: string; sessions: number }) => [row.key, row.sessions])).toEqual([
      ["success", 5],
      ["abandoned", 1],
      ["aborted", 1],
      ["failed", 1],
    ]);
    const byFamily = (
      await call("GET", "/analytics/flashing-occurences?from=2026-01-01&to=2026-12-31&dimension=ecuFamily", admin)
    ).json();
    expect(byFamily.data.map((row: { key: string; sessions: number }) => [row.key, row.sessions])).toEqual([
      ["Simos18", 5],
      ["MED17", 3],
    ]);
  });

  it("answers over time by day, week and month", async () => {
    const months = (
      await call("GET", "/analytics/flashing-overtime?from=2026-01-01&to=2026-12-31&bucket=month", admin)
    ).json();
    expect(months.data.map((row: { start: string; sessions: number }) => [row.start, row.sessions])).toEqual([
      ["2026-03-01", 7],
      ["2026-04-01", 1],
    ]);
    expect(months.data[0]).toMatchObject({ success: 5, failed: 1, aborted: 1, successRate: 5 / 6 });
    const days = (await call("GET", "/analytics/flashing-overtime?from=2026-03-10&to=2026-03-11", admin)).json();
    expect(days.bucket).toBe("day");
    expect(days.data.map((row: { start: string }) => row.start)).toEqual(["2026-03-10", "2026-03-11"]);
    const weeks = (
      await call("GET", "/analytics/flashing-overtime?from=2026-03-01&to=2026-03-31&bucket=week", admin)
    ).json();
    expect(weeks.data.map((row: { start: string }) => row.start)).toEqual(["2026-03-09", "2026-03-16"]);
  });

  it("keeps the rollup exact as a session ends, a failure is recovered and a vehicle is deleted", async () => {
    const [running] = await app.ctx.db.select().from(flashLogs).where(eq(flashLogs.result, "running"));
    await app.ctx.db
      .update(flashLogs)
      .set({ result: "success", durationMs: 90_000 })
      .where(eq(flashLogs.id, running.id));
    expect((await overview("from=2026-04-01&to=2026-04-30")).totals).toMatchObject({ sessions: 2, success: 1 });
    await app.ctx.db.update(flashLogs).set({ result: "recovered" }).where(eq(flashLogs.result, "failed"));
    expect((await overview()).totals).toMatchObject({ failed: 0, recovered: 1 });
    // Reports of steps touch only last_report_at: the rollup does not move.
    await app.ctx.db.update(flashLogs).set({ lastReportAt: new Date() });
    await insert(spareVehicleId, [
      { firmwareId: "SC8S50", ecuFamily: "Simos18", flashedAt: new Date("2026-05-01T00:00:00Z"), durationMs: 50_000 },
    ]);
    expect((await overview()).totals.sessions).toBe(10);
    await app.ctx.db.delete(userVehicles).where(eq(userVehicles.id, spareVehicleId));
    expect((await overview()).totals.sessions).toBe(9);
    // The rollup equals a count of the sessions themselves.
    const count = async (query: ReturnType<typeof sql>) =>
      Number(((await app.ctx.db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    expect(
      await count(
        sql`SELECT sum(success + failed + recovered + abandoned + aborted)::int AS n FROM ${flashStatsDaily}`,
      ),
    ).toBe(await count(sql`SELECT count(*)::int AS n FROM flash_logs WHERE result <> 'running'`));
    expect(await count(sql`SELECT sum(sessions)::int AS n FROM ${flashFailuresDaily}`)).toBe(
      await count(sql`SELECT count(*)::int AS n FROM flash_logs WHERE result IN ('failed', 'recovered', 'abandoned')`),
    );
  });

  it("counts concurrent session ends exactly", async () => {
    const sessions = await insert(
      vehicleId,
      Array.from({ length: 20 }, () => ({
        firmwareId: "SC8S50",
        ecuFamily: "Simos18",
        flashedAt: new Date("2026-06-01T00:00:00Z"),
        result: "running" as const,
      })),
    );
    await Promise.all(
      sessions.map((s) =>
        app.ctx.db.update(flashLogs).set({ result: "success", durationMs: 70_000 }).where(eq(flashLogs.id, s.id)),
      ),
    );
    expect((await overview("from=2026-06-01&to=2026-06-01")).totals).toMatchObject({ sessions: 20, success: 20 });
  });

  it("is for admins only, and refuses a bad query naming the parameter", async () => {
    expect((await call("GET", "/analytics/flashing-overview", dealer)).statusCode).toBe(403);
    expect((await call("GET", "/analytics/flashing-overview", customer)).statusCode).toBe(403);
    expect((await call("GET", "/analytics/flashing-overview", null)).statusCode).toBe(401);
    for (const [query, path] of [
      ["from=2026-13-01", "from"],
      ["from=2026-05-01&to=2026-04-01", "from"],
      ["from=2020-01-01&to=2026-01-01", "from"],
      ["kind=boat", "kind"],
      ["colour=red", "colour"],
    ]) {
      const refused = await call("GET", `/analytics/flashing-overview?${query}`, admin);
      expect(refused.statusCode, query).toBe(400);
      expect(
        refused.json().data.map((issue: { path: string }) => issue.path),
        query,
      ).toContain(path);
    }
    expect((await call("GET", "/analytics/flashing-occurences?dimension=colour", admin)).statusCode).toBe(400);
    expect((await call("GET", "/analytics/flashing-overtime?bucket=hour", admin)).statusCode).toBe(400);
    // With no range: the last 365 days.
    expect((await call("GET", "/analytics/flashing-overview", admin)).json().range.to).toBe(
      new Date().toISOString().slice(0, 10),
    );
  });
});
