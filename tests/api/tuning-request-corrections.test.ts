/**
 * Corrections from logs written into a tuning request's next revision: the dealer reads the maps of
 * the tune the revision starts from, and the cells they accepted are delivered through the same
 * checks as an uploaded revision, checksums fixed, the reasons on the ticket for the customer.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestMaps } from "../../contracts/tuning-request-corrections";
import { readCell, readItem } from "../../domain/tune";
import { dealerProfiles, tuningRequestFiles, tuningRequests } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { verifyAll } from "../../server/services/tune-engine";
import { carMaker } from "./support/flashing-setup";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 2, firmwareId: "CORRECT64K", seed: 3 });
const timing = demo.firmware.definition.items.find((item) => item.id === "ignition_base")!;
const QUESTIONNAIRE = { fuel: "98", transmission: "manual", notes: "Knocks in 4th" };
const REASON = "timing −1.5 ° at 4,400 rpm, 46 mg/stk: cylinders pulled timing";

describe.each(apiDatabases)("corrections into a tuning request's revision on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const requests = requestsTo(() => app);
  const { call, upload, storeFirmware } = requests;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let dealerId: string;
  const connectCar = carMaker(requests, demo, "CRRKT");

  const step = (response: { statusCode: number; body: string }) =>
    expect(response.statusCode, response.body).toBeLessThan(300);
  /** A paid request the dealer has started on, for a car with its stock read. */
  const startedRequest = async (): Promise<string> => {
    const vehicleId = await connectCar(customer);
    step(await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock));
    const made = await call("POST", "/tuning-requests", customer, {
      vehicleId,
      dealerId,
      questionnaire: QUESTIONNAIRE,
    });
    step(made);
    const id = made.json().id as string;
    const quote = { action: "quote", priceCents: 20000, currency: "EUR", expectedDays: 3, note: "Timing" };
    step(await call("PATCH", `/tuning-requests/${id}`, dealer, quote));
    const opened = await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id });
    step(opened);
    step(
      await call("POST", "/payments/sandbox/pay", customer, {
        orderId: opened.json().order.id,
        cardNumber: "4242 4242 4242 4242",
      }),
    );
    step(await call("PATCH", `/tuning-requests/${id}`, dealer, { action: "start" }));
    return id;
  };
  const correct = (id: string, user: TestUser, body: object) =>
    call("POST", `/tuning-requests/${id}/corrections`, user, body);
  const revisionsOf = (id: string) =>
    app.ctx.db
      .select()
      .from(tuningRequestFiles)
      .where(and(eq(tuningRequestFiles.requestId, id), eq(tuningRequestFiles.kind, "revision")));
  const stockCell = (row: number, col: number) => readCell(demo.stock, timing, row, col);

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    let admin: TestUser;
    [admin, dealer, otherDealer, customer] = await createUsers(test, [
      "admin",
      ["dealer", "Correcting Dealer"],
      ["dealer", "Other Dealer"],
      ["customer", "Correcting Customer"],
    ]);
    await Promise.all([admin, dealer, otherDealer, customer].map((user) => call("GET", "/tune-files", user)));
    const [profile] = await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Correct Tuning", status: "approved" })
      .returning();
    dealerId = profile.id;
    await readyPayouts(app, dealer.uid);
    await storeFirmware(admin, demo);
  });
  afterAll(async () => test?.close());

  it("reads the maps the next revision starts from: the stock read's before the first revision, the last revision's after", async () => {
    const id = await startedRequest();
    const maps = await call("GET", `/tuning-requests/${id}/maps`, dealer);
    expect(maps.statusCode, maps.body).toBe(200);
    const answer = maps.json() as RequestMaps;
    expect(answer.revision).toBe(0);
    expect(answer.maps.map((map) => map.values.id)).toContain(timing.id);
    expect(answer.maps.every((map) => map.values.kind === "table1d" || map.values.kind === "table2d")).toBe(true);
    const read = answer.maps.find((map) => map.values.id === timing.id)!;
    expect(read.title).toBe(timing.title);
    expect(read.values.values).toEqual(readItem(demo.stock, timing).values);

    const after = stockCell(9, 8) - 1.5;
    step(await correct(id, dealer, { itemId: timing.id, cells: [{ row: 9, col: 8, value: after }] }));
    const next = (await call("GET", `/tuning-requests/${id}/maps`, dealer)).json() as RequestMaps;
    expect(next.revision).toBe(1);
    const values = next.maps.find((map) => map.values.id === timing.id)!.values;
    expect(values.values[9 * values.cols + 8]).toBeCloseTo(after, 6);
  });

  it("writes the accepted cells into the next revision with valid checksums, the change summary and the reasons the customer reads", async () => {
    const id = await startedRequest();
    const cells = [
      { row: 9, col: 8, value: stockCell(9, 8) - 1.5 },
      { row: 10, col: 8, value: stockCell(10, 8) - 0.75 },
    ];
    const checked = await correct(id, dealer, { itemId: timing.id, cells, reasons: [REASON], dryRun: true });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ revision: 1, firmwareId: demo.firmware.firmwareId, checksumsFixed: true });
    expect(checked.json().changesFromStock).toEqual([expect.objectContaining({ id: timing.id, cells: 2 })]);
    expect(await revisionsOf(id)).toEqual([]);

    const delivered = await correct(id, dealer, { itemId: timing.id, cells, reasons: [REASON], note: "Less timing" });
    expect(delivered.statusCode, delivered.body).toBe(201);
    expect(delivered.json()).toMatchObject({ state: "delivered", revisions: 1 });
    const [stored] = await revisionsOf(id);
    const image = new Uint8Array(await app.ctx.blobs.read(stored.sha256));
    expect(verifyAll(image, demo.firmware.checksums).filter((result) => !result.valid)).toEqual([]);
    for (const { row, col, value } of cells) expect(readCell(image, timing, row, col)).toBeCloseTo(value, 6);
    // Every other byte is the stock read's, checksums apart.
    expect(readItem(image, timing).values.filter((v, k) => v !== readItem(demo.stock, timing).values[k])).toHaveLength(
      2,
    );

    const ticket = (await call("GET", `/tuning-requests/${id}`, customer)).json();
    expect(ticket.revisionList[0].note).toBe(`Less timing\n\nWhat changed and why:\n- ${REASON}`);
    expect(ticket.revisionList[0].changesFromStock).toEqual([expect.objectContaining({ id: timing.id, cells: 2 })]);
  });

  it("refuses bad cells in the error shape naming the field, storing nothing", async () => {
    const id = await startedRequest();
    const refused = async (body: object, path: string) => {
      const answer = await correct(id, dealer, body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
      expect(answer.json().data.map((issue: { path: string }) => issue.path)).toContain(path);
    };
    await refused({ itemId: "no_such_map", cells: [{ row: 0, col: 0, value: 1 }] }, "itemId");
    await refused({ itemId: "speed_limit", cells: [{ row: 0, col: 0, value: 200 }] }, "itemId");
    await refused({ itemId: timing.id, cells: [{ row: 16, col: 0, value: 1 }] }, "cells.0");
    await refused(
      {
        itemId: timing.id,
        cells: [
          { row: 0, col: 0, value: 1 },
          { row: 0, col: 0, value: 5 },
        ],
      },
      "cells",
    );
    // Beyond what the map's 8-bit cells hold.
    await refused({ itemId: timing.id, cells: [{ row: 1, col: 1, value: 500 }] }, "cells.0");
    await refused({ itemId: timing.id, cells: [] }, "cells");
    await refused({ itemId: timing.id, cells: [{ row: 0, col: 0, value: 1 }], apply: true }, "apply");
    expect(await revisionsOf(id)).toEqual([]);
    expect((await app.ctx.db.select().from(tuningRequests).where(eq(tuningRequests.id, id)))[0]).toMatchObject({
      state: "in-progress",
      revisions: 0,
    });
  });

  it("lets only the request's dealer read its maps and correct its tune, and only when a revision may be delivered", async () => {
    const id = await startedRequest();
    const body = { itemId: timing.id, cells: [{ row: 2, col: 2, value: stockCell(2, 2) + 0.75 }] };
    expect((await call("GET", `/tuning-requests/${id}/maps`, customer)).statusCode).toBe(403);
    expect((await correct(id, customer, body)).statusCode).toBe(403);
    expect((await call("GET", `/tuning-requests/${id}/maps`, otherDealer)).statusCode).toBe(404);
    expect((await correct(id, otherDealer, body)).statusCode).toBe(404);
    expect((await call("GET", `/tuning-requests/${id}/maps`, null)).statusCode).toBe(401);
    expect(await revisionsOf(id)).toEqual([]);
    step(await correct(id, dealer, body));
    // Delivered: the next revision waits for the customer to ask for one.
    const again = await correct(id, dealer, body);
    expect(again.statusCode, again.body).toBe(409);
    expect(await revisionsOf(id)).toHaveLength(1);
  });
});
