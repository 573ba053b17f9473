/**
 * The vehicle timeline: grouping of repeated connects and bakes, paging by cursor, the filter by
 * kind, and the refusals of bad paging and filter parameters.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TimelineEntry, TimelinePage } from "../../contracts/user-vehicles";
import { dealerProfiles, vehicleSnapshots } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { carReadyToFlash, identityOf } from "./support/flashing-setup";
import { apiDatabases, createUser, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "TLN64K" });

describe.each(apiDatabases)("vehicle timeline on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const requests = requestsTo(() => app);
  const { call } = requests;
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let vehicleId: string;
  let tuneId: string;
  const VIN = "WVWZZZAUZKW0TLN01";

  const connect = (faultCodes: string[], softwareId = demo.firmware.firmwareId) =>
    call("POST", "/user-vehicles/connect", customer, {
      ...identityOf(demo, VIN, "ECU-TLN-1"),
      ecu: { ...identityOf(demo, VIN, "ECU-TLN-1").ecu, softwareId },
      adapter: { kind: "virtual", firmware: "1.0" },
      appVersion: "2.4.0",
      batteryVolts: 12.6,
      faultCodes,
    });
  const timeline = async (query: string, user: TestUser = customer): Promise<TimelinePage> => {
    const answer = await call("GET", `/user-vehicles/${vehicleId}/timeline${query}`, user);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  /** Every page from the newest on, `limit` entries a page. */
  const walk = async (limit: number, filter = ""): Promise<{ entries: TimelineEntry[]; pages: number }> => {
    const entries: TimelineEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TimelinePage = await timeline(
        `?limit=${limit}${filter}${cursor ? `&before=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(limit);
      entries.push(...page.data);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    return { entries, pages };
  };
  /** The records the entries stand for: a grouped entry's members, else its own. */
  const recordsOf = (entries: TimelineEntry[]) =>
    entries.flatMap((entry) =>
      entry.count > 1 ? entry.members.map((m) => `${entry.kind}:${m.refId}`) : [`${entry.kind}:${entry.refId}`],
    );

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer] = await Promise.all([
      createUser(test, "admin"),
      createUser(test, "dealer"),
      createUser(test, "customer"),
    ]);
    await requests.storeFirmware(admin, demo);
    const car = await carReadyToFlash(requests, { admin, dealer, customer }, demo, VIN, "ECU-TLN-1");
    vehicleId = car.vehicleId;
    tuneId = car.tuneId;
  });
  afterAll(async () => test?.close());

  it("collapses repeated connects that changed nothing into one entry with a count and its first and last time", async () => {
    for (let i = 0; i < 11; i++) expect((await connect([])).statusCode).toBe(200);
    const [newest] = (await timeline("?kind=connect")).data;
    expect(newest).toMatchObject({ kind: "connect", title: "Connected with the app", count: 12 });
    expect(newest!.members).toHaveLength(12);
    expect(newest!.at).toBe(newest!.members[0]!.at);
    expect(newest!.firstAt).toBe(newest!.members[11]!.at);
    expect(newest!.firstAt < newest!.at).toBe(true);
  });

  it("keeps a connect that brought a new fault code or another software id as its own entry", async () => {
    expect((await connect(["P0299"])).statusCode).toBe(200);
    expect((await connect(["P0299"])).statusCode).toBe(200);
    expect((await connect([], "TLN64K-B")).statusCode).toBe(200);
    const entries = (await timeline("?kind=connect")).data;
    expect(entries.map((entry) => entry.count)).toEqual([1, 1, 1, 12]);
    expect(entries[0]!.detail).toContain("software TLN64K-B");
    expect(entries[2]!.detail).toContain("1 fault code(s)");
  });

  it("collapses repeated bakes of the same tune file while nothing else came between them", async () => {
    for (let i = 0; i < 4; i++) {
      const baked = await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: tuneId });
      expect(baked.statusCode, baked.body).toBe(201);
    }
    const bakes = (await timeline("?kind=bake")).data;
    expect(bakes).toHaveLength(1);
    expect(bakes[0]).toMatchObject({ kind: "bake", count: 5 });
    const all = (await timeline("")).data;
    // The first bake came before the latest connects, the first connect before the stock read.
    expect(all.map((entry) => [entry.kind, entry.count])).toEqual([
      ["bake", 4],
      ["connect", 1],
      ["connect", 1],
      ["connect", 1],
      ["connect", 11],
      ["bake", 1],
      ["stock-read", 1],
      ["connect", 1],
    ]);
  });

  it("filters by kind, and shows to the car's dealer and an admin what it showed before", async () => {
    const connectsAndStock = (await timeline("?kind=connect,stock-read")).data;
    expect(new Set(connectsAndStock.map((entry) => entry.kind))).toEqual(new Set(["connect", "stock-read"]));
    // Without the bakes and the stock read between them, the first connect joins the others.
    expect((await timeline("?kind=connect")).data.map((entry) => entry.count)).toEqual([1, 1, 1, 12]);
    expect((await timeline("?kind=connect,stock-read")).data.map((entry) => entry.count)).toEqual([1, 1, 1, 11, 1, 1]);
    expect((await timeline("?kind=flash,back-to-stock,log,tuning-request")).data).toEqual([]);
    expect((await timeline("", admin)).data).toEqual((await timeline("")).data);
    expect(
      (await call("GET", `/user-vehicles/${vehicleId}/timeline`, await createUser(test, "dealer"))).statusCode,
    ).toBe(404);
  });

  it("shows a dealer the steps of their own tuning requests on the car and none of another dealer's", async () => {
    const second = await createUser(test, "dealer");
    // A first GET makes each dealer's account row, which a dealer profile refers to.
    await Promise.all([dealer, second].map((user) => call("GET", "/tune-files", user)));
    const profiles = await app.ctx.db
      .insert(dealerProfiles)
      .values([
        { userUid: dealer.uid, businessName: "Seller Tuning", status: "approved" },
        { userUid: second.uid, businessName: "Second Tuning", status: "approved" },
      ])
      .returning();
    const asked = [];
    for (const profile of profiles) {
      const made = await call("POST", "/tuning-requests", customer, {
        vehicleId,
        dealerId: profile.id,
        questionnaire: {
          fuel: "98",
          transmission: "manual",
          targetPowerHp: null,
          notes: `for ${profile.businessName}`,
        },
      });
      expect(made.statusCode, made.body).toBe(201);
      asked.push(made.json().id as string);
    }
    const steps = async (user: TestUser) =>
      (await timeline("?kind=tuning-request", user)).data.map((entry) => entry.refId).toSorted();
    expect(await steps(customer)).toEqual(asked.toSorted());
    expect(await steps(admin)).toEqual(asked.toSorted());
    expect(await steps(dealer)).toEqual([asked[0]]);
    // The second dealer reaches the car through their request alone, and sees only its step.
    expect(await steps(second)).toEqual([asked[1]]);
    expect((await timeline("?kind=bake", second)).data.length).toBeGreaterThan(0);
  });

  it("walks every record exactly once, page by page, with the same entries whatever the page size", async () => {
    // A long history: more connects than one read of a source gives, each bringing a fault code
    // the one before did not have or dropping it, so that none groups with its neighbours.
    const base = Date.now() - 1000 * 60 * 60 * 24;
    await app.ctx.db.insert(vehicleSnapshots).values(
      Array.from({ length: 230 }, (_, i) => ({
        vehicleId,
        kind: "connect" as const,
        softwareId: demo.firmware.firmwareId,
        faultCodes: i % 2 ? [`P${1000 + i}`] : [],
        recordedAt: new Date(base + i * 1000),
      })),
    );
    const whole = await walk(100);
    const small = await walk(7);
    expect(small.pages).toBeGreaterThan(whole.pages);
    expect(small.entries).toEqual(whole.entries);
    const records = recordsOf(small.entries);
    expect(new Set(records).size).toBe(records.length);
    expect(records.filter((record) => record.startsWith("connect:"))).toHaveLength(230 + 15);
    expect(records.filter((record) => record.startsWith("bake:"))).toHaveLength(5);
    const ats = small.entries.map((entry) => entry.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const first = await timeline("");
    expect(first.data).toHaveLength(20);
    expect(first.nextCursor).not.toBeNull();
    const filtered = await walk(9, "&kind=bake");
    expect(filtered.entries.map((entry) => entry.count)).toEqual([5]);
  });

  it("refuses a bad limit, cursor or kind with a 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=2.5", "limit"],
      ["limit=ten", "limit"],
      ["before=yesterday", "before"],
      ["before=2026-02-30T10:00:00.000000Z_00000000-0000-4000-8000-000000000000", "before"],
      ["before=0000-01-01T10:00:00.000000Z_00000000-0000-4000-8000-000000000000", "before"],
      ["kind=colour", "kind"],
      ["kind=connect,", "kind"],
      ["kind=", "kind"],
      ["page=2", "page"],
    ]) {
      const refused = await call("GET", `/user-vehicles/${vehicleId}/timeline?${query}`, customer);
      expect(refused.statusCode, query).toBe(400);
      const body = refused.json();
      expect(body.statusCode, query).toBe(400);
      expect(body.message, query).toEqual(expect.any(String));
      expect(
        body.data.map((issue: { path: string }) => issue.path),
        query,
      ).toContain(field);
    }
  });
});
