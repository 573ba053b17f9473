/**
 * Markers of data logs: the owner adds, lists, changes and removes notes at a time or a stretch;
 * the file's own markers are listed beside them, read only; another user reads and writes none;
 * a live share link shows them signed out; bad input is a 400 naming the field and stores nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "../../contracts/api-paths";
import type { DataLogMarker } from "../../contracts/data-log-markers";
import type { CreatedDataLogShare, DataLogDetail } from "../../contracts/data-logs";
import { auditEvents, dataLogMarkers } from "../../server/db/schema";
import { uploadFixtureLog } from "./support/data-log-uploads";
import { bearer, bothDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";

describe.each(bothDatabases)("data log markers on %s", (kind) => {
  let test: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let log: DataLogDetail;
  /** The VCDS log whose marker column holds "2" and "3". */
  let marked: DataLogDetail;

  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, user?: TestUser, payload?: object) =>
    test.app.inject({ method, url: `/api/v1/${url}`, payload, headers: user ? bearer(user.token) : {} });
  const upload = (user: TestUser, name: string) => uploadFixtureLog(test, user, name);
  const markers = apiRoutes.dataLogMarkers;
  const storedFor = (logId: string) =>
    test.app.ctx.db.select().from(dataLogMarkers).where(eq(dataLogMarkers.logId, logId));

  beforeAll(async () => {
    test = await startTestApp(kind);
    [owner, other, admin] = await createUsers(test, ["customer", "customer", "admin"]);
    log = await upload(owner, "logs/romraider-semicolon-decimal-comma.csv");
    marked = await upload(owner, "more-logs/ecuxplot-vcds-legacy-groups.csv");
  }, 60_000);
  afterAll(async () => test?.close());

  it("adds a note at a moment and over a stretch, lists them by time, changes and removes them", async () => {
    const range = await call("POST", markers.list(log.id), owner, {
      startSeconds: 2,
      endSeconds: 3.5,
      note: "  Second pull  ",
    });
    expect(range.statusCode, range.body).toBe(201);
    const moment = await call("POST", markers.list(log.id), owner, { startSeconds: 1.25, note: "Knock here" });
    expect(moment.statusCode, moment.body).toBe(201);
    const [stretch, point] = [range.json() as DataLogMarker, moment.json() as DataLogMarker];
    expect(stretch).toMatchObject({ source: "user", startSeconds: 2, endSeconds: 3.5, note: "Second pull" });
    expect(point).toMatchObject({ source: "user", startSeconds: 1.25, endSeconds: null, note: "Knock here" });

    const listed = await call("GET", markers.list(log.id), owner);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((m: DataLogMarker) => m.note)).toEqual(["Knock here", "Second pull"]);

    const changed = await call("PATCH", markers.record(log.id, stretch.id), owner, {
      note: "Third gear",
      endSeconds: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: stretch.id, startSeconds: 2, endSeconds: null, note: "Third gear" });

    expect((await call("DELETE", markers.record(log.id, point.id), owner)).statusCode).toBe(204);
    expect((await storedFor(log.id)).map((row) => row.note)).toEqual(["Third gear"]);
    expect((await call("DELETE", markers.record(log.id, point.id), owner)).statusCode).toBe(404);
    // The owner's own changes are not audited.
    expect(await test.app.ctx.db.select().from(auditEvents).where(eq(auditEvents.targetId, log.id))).toEqual([]);
  });

  it("lists the file's own markers as from the file, with their times, and refuses to change them", async () => {
    const listed = (await call("GET", markers.list(marked.id), owner)).json().data as DataLogMarker[];
    expect(
      listed.map(({ id, source, startSeconds, endSeconds, note }) => ({ id, source, startSeconds, endSeconds, note })),
    ).toEqual([
      { id: "file-1", source: "file", startSeconds: 25.34, endSeconds: null, note: "Marker 2" },
      { id: "file-2", source: "file", startSeconds: 26.25, endSeconds: null, note: "Marker 3" },
    ]);
    const refused = await call("PATCH", markers.record(marked.id, "file-1"), owner, { note: "mine now" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data).toEqual([expect.objectContaining({ path: "markerId" })]);
  });

  it("keeps another user from reading or writing a log's markers", async () => {
    const [mine] = await storedFor(log.id);
    expect((await call("GET", markers.list(log.id), other)).statusCode).toBe(404);
    expect((await call("POST", markers.list(log.id), other, { startSeconds: 1, note: "Hi" })).statusCode).toBe(404);
    expect((await call("PATCH", markers.record(log.id, mine.id), other, { note: "Hijacked" })).statusCode).toBe(404);
    expect((await call("DELETE", markers.record(log.id, mine.id), other)).statusCode).toBe(404);
    expect((await call("GET", markers.list(log.id))).statusCode).toBe(401);
    const [after] = await storedFor(log.id);
    expect(after.note).toBe(mine.note);
  });

  it("tells the owner and an admin they may change the markers", async () => {
    for (const user of [owner, admin]) {
      const listed = await call("GET", markers.list(log.id), user);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().writable).toBe(true);
    }
  });

  it("lets an admin add a marker to someone's log, audited", async () => {
    const response = await call("POST", markers.list(log.id), admin, { startSeconds: 4, note: "Checked by support" });
    expect(response.statusCode, response.body).toBe(201);
    const rows = await test.app.ctx.db.select().from(auditEvents).where(eq(auditEvents.targetId, log.id));
    expect(rows.map((row) => row.action)).toEqual(["data-log.marker-added"]);
    expect(
      (await call("DELETE", markers.record(log.id, (response.json() as DataLogMarker).id), admin)).statusCode,
    ).toBe(204);
  });

  it("shows the markers to whoever holds a live share link, signed out, and to nobody after revoking", async () => {
    const share = (
      await call("POST", apiRoutes.dataLogs.share(marked.id), owner, { channels: [] })
    ).json() as CreatedDataLogShare;
    await call("POST", markers.list(marked.id), owner, { startSeconds: 10, endSeconds: 12, note: "Boost spike" });
    const shared = await call("GET", markers.shared(share.token));
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().writable, "a share link's holder may not change markers").toBe(false);
    expect(shared.json().data.map((m: DataLogMarker) => [m.source, m.note])).toEqual([
      ["user", "Boost spike"],
      ["file", "Marker 2"],
      ["file", "Marker 3"],
    ]);
    expect((await call("DELETE", `${apiRoutes.dataLogs.shares(marked.id)}/${share.id}`, owner)).statusCode).toBe(204);
    expect((await call("GET", markers.shared(share.token))).statusCode).toBe(404);
    expect((await call("GET", markers.shared("A".repeat(43)))).statusCode).toBe(404);
  });

  it.each([
    ["a time past the log's end", { startSeconds: 10_000, note: "Late" }, "startSeconds"],
    ["a stretch ending past the log's end", { startSeconds: 1, endSeconds: 10_000, note: "Long" }, "endSeconds"],
    ["a stretch ending before it starts", { startSeconds: 3, endSeconds: 2, note: "Backwards" }, "endSeconds"],
    ["a negative time", { startSeconds: -1, note: "Early" }, "startSeconds"],
    ["an empty note", { startSeconds: 1, note: "   " }, "note"],
    ["a note too long", { startSeconds: 1, note: "x".repeat(501) }, "note"],
    ["no note", { startSeconds: 1 }, "note"],
    ["an unknown field", { startSeconds: 1, note: "Hi", colour: "red" }, "colour"],
  ])("refuses %s with a 400 naming the field, storing nothing", async (_what, payload, field) => {
    const before = (await storedFor(log.id)).length;
    const response = await call("POST", markers.list(log.id), owner, payload);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, message: expect.any(String) });
    expect(body.data.map((issue: { path: string }) => issue.path)).toContain(field);
    expect(await storedFor(log.id)).toHaveLength(before);
  });

  it("refuses a change that would move a marker outside the log, keeping it as it was", async () => {
    const [mine] = await storedFor(log.id);
    const response = await call("PATCH", markers.record(log.id, mine.id), owner, { startSeconds: 99_999 });
    expect(response.statusCode).toBe(400);
    expect(response.json().data).toEqual([expect.objectContaining({ path: "startSeconds" })]);
    const [after] = await storedFor(log.id);
    expect(after.startSeconds).toBe(mine.startSeconds);
  });

  it("removes a log's markers with the log", async () => {
    const doomed = await upload(owner, "logs/ecumaster.csv");
    await call("POST", markers.list(doomed.id), owner, { startSeconds: 0, note: "Start" });
    expect((await call("DELETE", `data-logs/${doomed.id}`, owner)).statusCode).toBe(204);
    expect(await storedFor(doomed.id)).toEqual([]);
  });
});
