/**
 * List endpoints on 10,000 seeded rows: every page, sort and filter is compared
 * with the same query done in memory over the seeded data.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firmwareSupport, pidDescriptors, supportedVehicles } from "../../server/db/schema";
import { COUNT_CAP, MAX_OFFSET } from "../../server/http/list";
import { apiDatabases, bearer, createUser, startTestApp, type TestApp, type TestUser } from "./support/harness";

const ROWS = 10_000;
// Capitalised words and zero-padded numbers sort the same in JavaScript and in any PostgreSQL collation.
const MAKES = ["Audi", "Bmw", "Cupra", "Ford", "Mini", "Porsche", "Seat", "Skoda", "Toyota", "Volkswagen"];
const FIRMWARE = Array.from({ length: 20 }, (_, i) => `FW${String(i).padStart(4, "0")}`);

interface Vehicle {
  id: string;
  make: string;
  model: string;
  engine: string;
  yearFrom: number;
  firmwareIds: string[];
}

function seededVehicles(): Omit<Vehicle, "id">[] {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: ROWS }, () => ({
    make: MAKES[next() % MAKES.length],
    model: `Model${String(next() % 500).padStart(4, "0")}`,
    engine: `Engine${String(next() % 40).padStart(2, "0")}`,
    yearFrom: 1990 + (next() % 35),
    firmwareIds: [FIRMWARE[next() % FIRMWARE.length]],
  }));
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

describe.each(apiDatabases)("catalogue lists on 10,000 rows on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let vehicles: Vehicle[];

  const list = (url: string) => app.inject({ method: "GET", url: `/api/v1${url}`, headers: bearer(admin.token) });
  const ids = (response: { json(): { data: Array<{ id: string }> } }) => response.json().data.map((row) => row.id);

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    admin = await createUser(test, "admin");
    const db = app.ctx.db;
    await db.insert(firmwareSupport).values(
      FIRMWARE.map((firmwareId, i) => ({
        firmwareId,
        ecuFamily: `Family${i % 3}`,
        manufacturer: i % 2 ? "Bosch" : "Continental",
        imageSize: 65536 * (1 + (i % 4)),
      })),
    );
    const values = seededVehicles();
    const stored: Vehicle[] = [];
    for (let i = 0; i < values.length; i += 1000) {
      const batch = values.slice(i, i + 1000).map((v) => ({ ...v, ecu: "Simos" }));
      stored.push(
        ...(await db.insert(supportedVehicles).values(batch).returning({
          id: supportedVehicles.id,
          make: supportedVehicles.make,
          model: supportedVehicles.model,
          engine: supportedVehicles.engine,
          yearFrom: supportedVehicles.yearFrom,
          firmwareIds: supportedVehicles.firmwareIds,
        })),
      );
    }
    vehicles = stored;
    const pids = Array.from({ length: ROWS }, (_, i) => ({
      name: `Channel${String(i).padStart(5, "0")}`,
      variable: `ch_${i}`,
      source: (["obd", "uds", "ram"] as const)[i % 3],
      address: `0x${(0x1000 + i).toString(16).toUpperCase()}`,
      length: 1 + (i % 4),
    }));
    for (let i = 0; i < pids.length; i += 1000) await db.insert(pidDescriptors).values(pids.slice(i, i + 1000));
    // Statistics as autovacuum would have them: the estimate of large totals reads them.
    await db.execute(sql`ANALYZE`);
  }, 120_000);
  afterAll(async () => test?.close());

  it("pages through the default order without gaps or overlaps", async () => {
    const expected = [...vehicles].sort(
      (a, b) => compare(a.make, b.make) || compare(a.model, b.model) || compare(a.id, b.id),
    );
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++)
      seen.push(...ids(await list(`/firmware-support/supported-vehicle?page=${page}&pageSize=200`)));
    expect(seen).toEqual(expected.slice(0, 1000).map((v) => v.id));
  });

  it("sorts descending on several fields with filters, and counts exactly under the cap", async () => {
    const expected = vehicles
      .filter((v) => v.make === "Audi" && v.yearFrom >= 2000 && v.yearFrom <= 2010)
      .sort((a, b) => compare(b.yearFrom, a.yearFrom) || compare(a.model, b.model) || compare(a.id, b.id));
    expect(expected.length).toBeLessThanOrEqual(COUNT_CAP);
    const response = await list(
      "/firmware-support/supported-vehicle?make[eq]=Audi&yearFrom[between]=2000,2010&sort=-yearFrom,model&page=3&pageSize=50",
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ total: expected.length, totalEstimated: false });
    expect(ids(response)).toEqual(expected.slice(100, 150).map((v) => v.id));
  });

  it("filters by firmware id (array), by list membership and by search text", async () => {
    const byFirmware = vehicles.filter((v) => v.firmwareIds.includes("FW0003") && ["Bmw", "Mini"].includes(v.make));
    const response = await list(
      "/firmware-support/supported-vehicle?firmwareIds[eq]=FW0003&make[in]=Bmw,Mini&pageSize=200&sort=engine",
    );
    expect(response.json().total).toBe(byFirmware.length);
    expect(
      response.json().data.every((v: Vehicle) => v.firmwareIds.includes("FW0003") && ["Bmw", "Mini"].includes(v.make)),
    ).toBe(true);
    expect(response.json().data.map((v: Vehicle) => v.engine)).toEqual(
      [...byFirmware.map((v) => v.engine)].sort().slice(0, 200),
    );

    const searched = vehicles.filter((v) => `${v.make} ${v.model}`.toLowerCase().includes("model0042"));
    const search = await list("/firmware-support/supported-vehicle?q=model0042&pageSize=200");
    expect(search.json().total).toBe(searched.length);
    expect(new Set(ids(search))).toEqual(new Set(searched.map((v) => v.id)));
  });

  it("estimates totals above the cap instead of counting every row, and says so", async () => {
    const response = await list("/firmware-support/supported-vehicle?pageSize=10");
    expect(response.json().totalEstimated).toBe(true);
    expect(response.json().total).toBeGreaterThan(COUNT_CAP);
    // The planner's estimate after ANALYZE is close to the real count.
    expect(Math.abs(response.json().total - ROWS)).toBeLessThan(ROWS * 0.2);
  });

  it("filters other resources through the same helper: PID sources, derived booleans", async () => {
    const pids = await list(
      "/firmware-support/pid-descriptors?source[in]=obd,ram&name[startswith]=Channel09&sort=-name&pageSize=20",
    );
    const expected = Array.from({ length: ROWS }, (_, i) => i)
      .filter((i) => i % 3 !== 1 && String(i).padStart(5, "0").startsWith("09"))
      .map((i) => `Channel${String(i).padStart(5, "0")}`)
      .sort()
      .reverse();
    expect(pids.json().total).toBe(expected.length);
    expect(pids.json().data.map((p: { name: string }) => p.name)).toEqual(expected.slice(0, 20));

    const firmware = await list(
      "/firmware-support?hasStockFile[eq]=false&manufacturer[eq]=Bosch&sort=-imageSize,firmwareId",
    );
    expect(firmware.json().total).toBe(10);
    const sizes = firmware.json().data.map((f: { imageSize: number }) => f.imageSize);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it("reads deep offset pages (ids first) exactly as the order says", async () => {
    const expected = [...vehicles].sort(
      (a, b) => compare(a.make, b.make) || compare(a.model, b.model) || compare(a.id, b.id),
    );
    const response = await list("/firmware-support/supported-vehicle?page=40&pageSize=200");
    expect(response.statusCode, response.body).toBe(200);
    expect(ids(response)).toEqual(expected.slice(7800, 8000).map((v) => v.id));
    const last = await list("/firmware-support/supported-vehicle?page=50&pageSize=200");
    expect(ids(last)).toEqual(expected.slice(9800).map((v) => v.id));
  });

  it("pages by cursor forwards through a whole result and back, matching the order page for page", async () => {
    const expected = vehicles
      .filter((v) => v.make === "Audi")
      .sort((a, b) => compare(a.model, b.model) || compare(a.id, b.id));
    const base = "/firmware-support/supported-vehicle?make[eq]=Audi&sort=model&pageSize=150";
    const pages: string[][] = [];
    let response = await list(base);
    let last = response.json();
    pages.push(ids(response));
    while (last.nextCursor && last.data.length === 150) {
      response = await list(`${base}&after=${last.nextCursor}`);
      expect(response.statusCode, response.body).toBe(200);
      last = response.json();
      expect(last.total).toBe(expected.length);
      pages.push(ids(response));
    }
    expect(pages.flat()).toEqual(expected.map((v) => v.id));
    // Back from the last page by its first row: the page before it, in the same order.
    const back = await list(`${base}&before=${last.prevCursor}`);
    expect(ids(back)).toEqual(pages[pages.length - 2]);
  });

  it("pages by cursor on a sort with mixed directions", async () => {
    const expected = vehicles
      .filter((v) => v.make === "Bmw" || v.make === "Mini")
      .sort((a, b) => compare(b.yearFrom, a.yearFrom) || compare(a.model, b.model) || compare(a.id, b.id));
    const base = "/firmware-support/supported-vehicle?make[in]=Bmw,Mini&sort=-yearFrom,model&pageSize=100";
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 6; page++) {
      const response = await list(cursor ? `${base}&after=${cursor}` : base);
      seen.push(...ids(response));
      cursor = response.json().nextCursor;
    }
    expect(seen).toEqual(expected.slice(0, 600).map((v) => v.id));
    const back = await list(`${base}&before=${cursor}`);
    expect(ids(back)).toEqual(expected.slice(499, 599).map((v) => v.id));
  });

  it("refuses a cursor from another order, a forged one, or both directions at once", async () => {
    const first = (await list("/firmware-support/supported-vehicle?sort=model&pageSize=5")).json();
    const otherOrder = await list(
      `/firmware-support/supported-vehicle?sort=engine&pageSize=5&after=${first.nextCursor}`,
    );
    expect(otherOrder.statusCode).toBe(400);
    expect(otherOrder.json().data).toEqual([
      { path: "after", message: "the cursor belongs to another order of this list" },
    ]);
    const forged = await list("/firmware-support/supported-vehicle?sort=model&pageSize=5&after=bm90LWEtY3Vyc29y");
    expect(forged.json().data[0]).toMatchObject({ path: "after" });
    const both = await list(
      `/firmware-support/supported-vehicle?sort=model&after=${first.nextCursor}&before=${first.prevCursor}`,
    );
    expect(both.statusCode).toBe(400);
  });

  it("refuses what it cannot answer, naming the parameter", async () => {
    const deep = await list(`/firmware-support/supported-vehicle?page=${MAX_OFFSET / 20 + 1}&pageSize=20`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().data).toEqual([{ path: "page", message: expect.stringContaining("narrow") }]);
    const sort = await list("/firmware-support/supported-vehicle?sort=ecuSecret");
    expect(sort.json().data[0].path).toBe("sort");
    const number = await list("/firmware-support/supported-vehicle?yearFrom[gte]=soon");
    // yearFrom is an integer column: the value is checked against what it holds (contracts/list-query ListValueType).
    expect(number.json().data).toEqual([
      { path: "yearFrom[gte]", message: "must be a whole number from -2147483648 to 2147483647" },
    ]);
    const operator = await list("/firmware-support/supported-vehicle?make[gt]=A");
    expect(operator.statusCode).toBe(400);
  });
});
