/**
 * Layouts of the log chart: a user saves panes under a name for one logger, lists them (all or
 * one logger's), renames them or gives them new panes, and removes them; nobody else sees or
 * changes them; a name is one per user and logger whatever its case; bad input is a 400 naming
 * the field and stores nothing. A share link carries a layout of the channels it shows, and the
 * link's holder reads it signed out.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import type { DataLogLayout } from "../../contracts/data-log-layouts";
import type { CreatedDataLogShare, DataLogDetail, ResolvedDataLogShare } from "../../contracts/data-logs";
import { dataLogLayouts, dataLogShares } from "../../server/db/schema";
import { uploadFixtureLog } from "./support/data-log-uploads";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";

const LAYOUTS = apiPaths["data-log-layouts"].list;
const BOOST = [["plx-engine-speed"], ["plx-manifold-absolute-pressure"]];

describe.each(apiDatabases)("data log layouts on %s", (kind) => {
  let test: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let log: DataLogDetail;

  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, user?: TestUser, payload?: object) =>
    test.app.inject({ method, url: `/api/v1/${url}`, payload, headers: user ? bearer(user.token) : {} });
  const storedOf = (user: TestUser) =>
    test.app.ctx.db.select().from(dataLogLayouts).where(eq(dataLogLayouts.ownerUid, user.uid));

  beforeAll(async () => {
    test = await startTestApp(kind);
    [owner, other] = await createUsers(test, ["customer", "customer"]);
    log = await uploadFixtureLog(test, owner, "logs/romraider-semicolon-decimal-comma.csv");
  }, 60_000);
  afterAll(async () => test?.close());

  it("saves a layout per logger, lists one logger's or all, renames it, gives it new panes and removes it", async () => {
    const saved = await call("POST", LAYOUTS, owner, { format: "romraider", name: "  Boost  ", panes: BOOST });
    expect(saved.statusCode, saved.body).toBe(201);
    const boost = saved.json() as DataLogLayout;
    expect(boost).toMatchObject({ format: "romraider", name: "Boost", panes: BOOST });
    const fuel = await call("POST", LAYOUTS, owner, { format: "cobb-accessport", name: "Fuel", panes: [["afr"]] });
    expect(fuel.statusCode, fuel.body).toBe(201);

    const romraider = await call("GET", `${LAYOUTS}?format=romraider`, owner);
    expect(romraider.statusCode).toBe(200);
    expect(romraider.json().data.map((layout: DataLogLayout) => layout.name)).toEqual(["Boost"]);
    const all = await call("GET", LAYOUTS, owner);
    expect(all.json().data.map((layout: DataLogLayout) => `${layout.format}/${layout.name}`)).toEqual([
      "cobb-accessport/Fuel",
      "romraider/Boost",
    ]);

    const renamed = await call("PATCH", `${LAYOUTS}/${boost.id}`, owner, {
      name: "Boost and timing",
      panes: [...BOOST, ["timing-advance", "timing-advance"]],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // A channel named twice in a pane is kept once.
    expect(renamed.json()).toMatchObject({ name: "Boost and timing", panes: [...BOOST, ["timing-advance"]] });

    expect((await call("DELETE", `${LAYOUTS}/${boost.id}`, owner)).statusCode).toBe(204);
    expect((await storedOf(owner)).map((row) => row.name)).toEqual(["Fuel"]);
    expect((await call("DELETE", `${LAYOUTS}/${boost.id}`, owner)).statusCode).toBe(404);
  });

  it("keeps one name per user and logger whatever its case, and lets the same name serve another logger or user", async () => {
    expect((await call("POST", LAYOUTS, owner, { format: "jb4", name: "Street", panes: [["rpm"]] })).statusCode).toBe(
      201,
    );
    const again = await call("POST", LAYOUTS, owner, { format: "jb4", name: "STREET", panes: [["boost"]] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ data: [{ path: "name" }] });
    expect(again.json().description).toContain('"STREET"');
    expect((await call("POST", LAYOUTS, owner, { format: "mhd", name: "Street", panes: [["rpm"]] })).statusCode).toBe(
      201,
    );
    expect((await call("POST", LAYOUTS, other, { format: "jb4", name: "Street", panes: [["rpm"]] })).statusCode).toBe(
      201,
    );
    const [mhd] = (await call("GET", `${LAYOUTS}?format=mhd`, owner)).json().data as DataLogLayout[];
    const clash = await call("PATCH", `${LAYOUTS}/${mhd.id}`, owner, { name: "fuel" });
    expect(clash.statusCode, clash.body).toBe(200);
    // "Fuel" belongs to another logger (cobb-accessport), so renaming mhd's to "fuel" is allowed.
    expect(clash.json()).toMatchObject({ name: "fuel" });
  });

  it("shows and changes nobody else's layouts", async () => {
    const [mine] = (await call("GET", `${LAYOUTS}?format=jb4`, owner)).json().data as DataLogLayout[];
    const theirs = await call("GET", `${LAYOUTS}?format=jb4`, other);
    expect(theirs.json().data.map((layout: DataLogLayout) => layout.id)).not.toContain(mine.id);
    expect((await call("PATCH", `${LAYOUTS}/${mine.id}`, other, { name: "Mine now" })).statusCode).toBe(404);
    expect((await call("DELETE", `${LAYOUTS}/${mine.id}`, other)).statusCode).toBe(404);
    expect((await call("GET", LAYOUTS)).statusCode).toBe(401);
    expect((await storedOf(owner)).find((row) => row.id === mine.id)?.name).toBe("Street");
  });

  it("refuses bad input with a 400 naming the field, and stores nothing", async () => {
    const before = (await storedOf(owner)).length;
    const cases: Array<[object, string]> = [
      [{ format: "no-such-logger", name: "X", panes: [["rpm"]] }, "format"],
      [{ format: "jb4", name: "   ", panes: [["rpm"]] }, "name"],
      [{ format: "jb4", name: "X".repeat(61), panes: [["rpm"]] }, "name"],
      [{ format: "jb4", name: "Empty", panes: [] }, "panes"],
      [{ format: "jb4", name: "Empty pane", panes: [[]] }, "panes.0"],
      [{ format: "jb4", name: "Nine", panes: Array.from({ length: 9 }, () => ["rpm"]) }, "panes"],
      [{ format: "jb4", name: "Numbers", panes: [[1, 2]] }, "panes.0.0"],
      [{ format: "jb4", name: "Extra", panes: [["rpm"]], colour: "red" }, ""],
    ];
    for (const [body, field] of cases) {
      const response = await call("POST", LAYOUTS, owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(response.json().data.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    expect((await call("PATCH", `${LAYOUTS}/not-a-uuid`, owner, { name: "X" })).statusCode).toBe(400);
    expect((await storedOf(owner)).length).toBe(before);
  });

  it("carries a layout of the shared channels with a share link, read by the link's holder signed out", async () => {
    const layout = { name: "Boost", panes: [...BOOST, ["plx-engine-speed", "plx-engine-speed"]] };
    const made = await call("POST", apiRoutes.dataLogs.share(log.id), owner, { channels: [], layout });
    expect(made.statusCode, made.body).toBe(201);
    const { token, layout: kept } = made.json() as CreatedDataLogShare;
    expect(kept).toEqual({ name: "Boost", panes: [...BOOST, ["plx-engine-speed"]] });

    const opened = await call("POST", apiRoutes.dataLogs.shared(token));
    expect(opened.statusCode, opened.body).toBe(200);
    expect((opened.json() as ResolvedDataLogShare).share.layout).toEqual(kept);

    const plain = await call("POST", apiRoutes.dataLogs.share(log.id), owner, { channels: ["plx-engine-speed"] });
    expect(plain.statusCode, plain.body).toBe(201);
    const resolved = await call("POST", apiRoutes.dataLogs.shared((plain.json() as CreatedDataLogShare).token));
    expect((resolved.json() as ResolvedDataLogShare).share.layout).toBeNull();
  });

  it("refuses a share whose layout draws a channel the link does not show, and makes no link", async () => {
    const before = await test.app.ctx.db.select().from(dataLogShares).where(eq(dataLogShares.logId, log.id));
    const hidden = await call("POST", apiRoutes.dataLogs.share(log.id), owner, {
      channels: ["plx-engine-speed"],
      layout: { name: "Boost", panes: BOOST },
    });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().description).toContain("plx-manifold-absolute-pressure");
    expect(hidden.json().data).toEqual([
      { path: "layout.panes", message: 'unknown channel "plx-manifold-absolute-pressure"' },
    ]);
    const unknown = await call("POST", apiRoutes.dataLogs.share(log.id), owner, {
      channels: [],
      layout: { name: "Boost", panes: [["no-such-channel"]] },
    });
    expect(unknown.statusCode).toBe(400);
    const unnamed = await call("POST", apiRoutes.dataLogs.share(log.id), owner, {
      channels: [],
      layout: { name: "", panes: BOOST },
    });
    expect(unnamed.statusCode).toBe(400);
    const after = await test.app.ctx.db.select().from(dataLogShares).where(eq(dataLogShares.logId, log.id));
    expect(after.length).toBe(before.length);
  });
});
