import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixAll, readItem, writeItem } from "../../domain/tune";
import { userVehicles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 24, patchEntries: 2, firmwareId: "VIEWER64K" });
const other = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "VIEWOTHER64K", seed: 9 });
/** A firmware whose record has no definition yet. */
const bare = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "VIEWBARE64K", seed: 11 });
const { items } = demo.firmware.definition;
const table = items.find((item) => item.kind === "table2d" && demo.tune.changedItems.includes(item.id))!;
const untouched = items.find((item) => !demo.tune.changedItems.includes(item.id) && item.kind === "flag")!;

/** The demo tune with one more flag toggled: compared with the demo tune, only that flag differs. */
const rival = Uint8Array.from(demo.tune.image);
writeItem(rival, untouched, [1 - readItem(rival, untouched).values[0]]);
fixAll(rival, demo.firmware.checksums);

describe.each(apiDatabases)("tune viewer API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let tuneId: string;
  let rivalId: string;
  let foreignId: string;
  let bareId: string;

  const { call, upload, storeFirmware } = requestsTo(() => app);
  const created = async (response: Awaited<ReturnType<typeof upload>>) => {
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer, stranger] = await createUsers(test, ["admin", "dealer", "customer", "customer"]);
    await storeFirmware(admin, demo);
    await storeFirmware(admin, other, { stock: false });
    await storeFirmware(admin, bare, { stock: false, overrides: { definition: undefined } });
    tuneId = await created(await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" }));
    rivalId = await created(await upload("/tune-files", dealer, rival, { title: "Stage 1 with more" }));
    foreignId = await created(await upload("/tune-files", dealer, other.tune.image, { title: "Other firmware" }));
    bareId = await created(await upload("/tune-files", dealer, bare.tune.image, { title: "No definition" }));
    // The customer buys Stage 1 (granted by an admin for their vehicle), with view but not download.
    await call("GET", "/tune-files", customer);
    const [{ id: vehicleId }] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: customer.uid, name: "Hatch", vin: "WVIEW000000000001" })
      .returning();
    expect((await call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId })).statusCode).toBe(201);
  });
  afterAll(async () => test?.close());

  it("answers the definition and the changed items without values, then one item's values and stock's", async () => {
    const maps = await call("GET", `/tune-files/${tuneId}/maps`, dealer);
    expect(maps.statusCode, maps.body).toBe(200);
    expect(maps.json()).toMatchObject({ firmwareId: "VIEWER64K", version: 1, base: { kind: "stock" } });
    expect(maps.json()).not.toHaveProperty("values");
    expect(maps.json().changed).toEqual(
      items.filter((item) => demo.tune.changedItems.includes(item.id)).map((item) => item.id),
    );
    expect(maps.json().definition.items).toHaveLength(items.length);

    const values = await call("GET", `/tune-files/${tuneId}/maps/${table.id}`, dealer);
    expect(values.statusCode, values.body).toBe(200);
    expect(values.json()).toEqual({ values: readItem(demo.tune.image, table), base: readItem(demo.stock, table) });
    const missing = await call("GET", `/tune-files/${tuneId}/maps/no_such_map`, dealer);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().description).toContain("no_such_map");
  });

  it("compares with another tune of the same firmware: only the items that differ, and that tune's values as the base", async () => {
    const maps = await call("GET", `/tune-files/${tuneId}/maps?against=${rivalId}`, dealer);
    expect(maps.statusCode, maps.body).toBe(200);
    expect(maps.json().base).toEqual({ kind: "tune", tuneFileId: rivalId, title: "Stage 1 with more" });
    expect(maps.json().changed).toEqual([untouched.id]);
    const values = await call("GET", `/tune-files/${tuneId}/maps/${untouched.id}?against=${rivalId}`, dealer);
    expect(values.json()).toEqual({ values: readItem(demo.tune.image, untouched), base: readItem(rival, untouched) });

    const foreign = await call("GET", `/tune-files/${tuneId}/maps?against=${foreignId}`, dealer);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().description).toContain("VIEWOTHER64K");
    expect((await call("GET", `/tune-files/${tuneId}/maps?against=not-an-id`, dealer)).statusCode).toBe(400);
  });

  it("answers no definition and no changed items for a firmware without a definition, and no item values", async () => {
    const maps = await call("GET", `/tune-files/${bareId}/maps`, dealer);
    expect(maps.statusCode, maps.body).toBe(200);
    expect(maps.json()).toMatchObject({ firmwareId: "VIEWBARE64K", definition: null, base: null, changed: [] });
    const item = await call("GET", `/tune-files/${bareId}/maps/${bare.firmware.definition.items[0].id}`, dealer);
    expect(item.statusCode).toBe(404);
    expect(item.json().description).toContain("VIEWBARE64K");
  });

  it("gives the stock bytes where the tune differs, which laid over the tune make the stock image, to whoever may download the tune", async () => {
    const response = await call("GET", `/tune-files/${tuneId}/stock-differences`, dealer);
    expect(response.statusCode, response.body).toBe(200);
    const { size, regions } = response.json() as { size: number; regions: Array<{ start: number; bytes: string }> };
    expect(size).toBe(demo.stock.length);
    const rebuilt = Uint8Array.from(demo.tune.image);
    for (const region of regions) rebuilt.set(Buffer.from(region.bytes, "base64"), region.start);
    expect(Buffer.from(rebuilt).equals(Buffer.from(demo.stock))).toBe(true);
    // Nothing of stock beyond what the tune changes.
    const sent = regions.reduce((n, region) => n + Buffer.from(region.bytes, "base64").length, 0);
    expect(sent).toBe(demo.stock.reduce((n, byte, i) => n + (byte !== demo.tune.image[i] ? 1 : 0), 0));

    expect((await call("GET", `/tune-files/${bareId}/stock-differences`, dealer)).statusCode).toBe(404);
    expect((await call("GET", `/tune-files/${tuneId}/stock-differences`, stranger)).statusCode).toBe(404);
    await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: true, mayDownload: false });
    const buyer = await call("GET", `/tune-files/${tuneId}/stock-differences`, customer);
    expect(buyer.statusCode).toBe(403);
    expect(buyer.json().description).toContain("does not let buyers download");
  });

  it("keeps protection on every read: no maps without view, no comparison with a tune the caller may not view", async () => {
    // Bought with view: maps and items, but not compared with the dealer's unpublished tune, which the customer cannot see.
    await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: true, mayDownload: false });
    expect((await call("GET", `/tune-files/${tuneId}/maps/${table.id}`, customer)).statusCode).toBe(200);
    expect((await call("GET", `/tune-files/${tuneId}/maps?against=${rivalId}`, customer)).statusCode).toBe(404);
    expect((await call("GET", `/tune-files/${tuneId}/maps/${table.id}?against=${rivalId}`, customer)).statusCode).toBe(
      404,
    );
    // A published tune the customer has not bought: visible, but its maps are not theirs to compare with.
    await readyPayouts(app, dealer.uid);
    expect(
      (await call("PUT", `/tune-files/${rivalId}/publish`, dealer, { priceCents: 100, currency: "EUR" })).statusCode,
    ).toBe(200);
    const unbought = await call("GET", `/tune-files/${tuneId}/maps/${table.id}?against=${rivalId}`, customer);
    expect(unbought.statusCode).toBe(403);
    expect(unbought.json().description).toContain("Stage 1 with more");
    expect((await call("GET", `/tune-files/${rivalId}/maps?against=${tuneId}`, customer)).statusCode).toBe(403);

    // Bought without view: flash only, no maps or items.
    await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: false });
    for (const url of [`/tune-files/${tuneId}/maps`, `/tune-files/${tuneId}/maps/${table.id}`]) {
      const refused = await call("GET", url, customer);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().description).toContain("not view its maps");
    }
    // Strangers do not learn the tune exists; buyers get the current version only.
    expect((await call("GET", `/tune-files/${tuneId}/maps/${table.id}`, stranger)).statusCode).toBe(404);
    await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: true });
    expect((await call("GET", `/tune-files/${tuneId}/maps/${table.id}?version=2`, customer)).statusCode).toBe(403);
  });

  it("answers a local image's definition with its inspection only when asked, and none for an unknown firmware", async () => {
    const plain = await upload("/tune-files/inspect", stranger, demo.tune.image);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).not.toHaveProperty("definition");
    const withDefinition = await upload("/tune-files/inspect?definition=true", stranger, demo.tune.image);
    expect(withDefinition.json()).toMatchObject({ firmwareId: "VIEWER64K", definition: { firmwareId: "VIEWER64K" } });
    expect(withDefinition.json().definition.items).toHaveLength(items.length);
    const unknown = await upload("/tune-files/inspect?definition=true", stranger, new Uint8Array(64 * 1024));
    expect(unknown.json()).toMatchObject({ firmwareId: null, definition: null });
  });
});
