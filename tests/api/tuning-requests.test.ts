import type { AddressInfo } from "node:net";
import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTO_ACCEPT_DAYS,
  nextState,
  TUNING_REQUEST_ACTIONS,
  type TuningRequestActionName,
  type TuningRequestState,
} from "../../contracts/tuning-requests";
import {
  dataLogs,
  dealerProfiles,
  ledgerEntries,
  notifications,
  orders,
  tuneFilePurchases,
  tuningRequestFiles,
  tuningRequests,
  userVehicles,
} from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { acceptSilentDeliveries, noticeDueRequests } from "../../server/services/tuning-requests";
import { listen } from "./support/event-stream-client";
import { carMaker } from "./support/flashing-setup";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { waitForMail } from "./support/inbox";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 2, firmwareId: "TUNEREQ64K" });
const other = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "OTHERREQ64K", seed: 7 });
const DAY_MS = 24 * 60 * 60 * 1000;
const QUESTIONNAIRE = {
  fuel: "98",
  transmission: "automatic",
  intake: "Eventuri",
  exhaust: "downpipe, no cat",
  turbo: "stock",
  intercooler: "Wagner",
  targetPowerHp: 420,
  notes: "Daily driver, track days",
};
const QUOTE = { action: "quote", priceCents: 45000, currency: "EUR", expectedDays: 5, note: "Stage 2 on 98" };

describe.each(apiDatabases)("tuning requests on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let dealerId: string;

  /** A car of the customer's running the demo firmware, with its stock read unless told otherwise. */
  const connectCar = carMaker(
    requestsTo(() => app),
    demo,
    "WRTSZ",
  );
  const car = async (user = customer, stockRead = true) => {
    const id = await connectCar(user);
    if (stockRead)
      expect((await upload(`/user-vehicles/${id}/upload-tune-dump/0`, user, demo.stock)).statusCode).toBe(200);
    return id;
  };
  const ask = async (vehicleId: string, extra: object = {}) =>
    call("POST", "/tuning-requests", customer, { vehicleId, dealerId, questionnaire: QUESTIONNAIRE, ...extra });
  const patch = (id: string, user: TestUser, body: object) => call("PATCH", `/tuning-requests/${id}`, user, body);
  const deliver = (
    id: string,
    user: TestUser = dealer,
    image: Uint8Array = demo.tune.image,
    note = "Revision",
    fields: Record<string, string> = {},
  ) => upload(`/tuning-requests/${id}/revisions`, user, image, { note, ...fields }, "revision.bin");
  const pay = async (id: string) => {
    const opened = await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id });
    expect(opened.statusCode, opened.body).toBe(201);
    const paid = await call("POST", "/payments/sandbox/pay", customer, {
      orderId: opened.json().order.id,
      cardNumber: "4242 4242 4242 4242",
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return opened.json().order.id as string;
  };
  const stateOf = async (id: string) =>
    (await app.ctx.db.select().from(tuningRequests).where(eq(tuningRequests.id, id)))[0];
  const notified = async (uid: string) =>
    (await app.ctx.db.select({ n: count() }).from(notifications).where(eq(notifications.recipientUid, uid)))[0].n;

  /** A new request driven through the API to `state` (quoted with `quote` on the way). */
  const requestIn = async (state: TuningRequestState, quote: object = QUOTE): Promise<string> => {
    const made = await ask(await car());
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    const step = async (response: { statusCode: number; body: string }) =>
      expect(response.statusCode, response.body).toBeLessThan(300);
    if (state === "submitted") return id;
    if (state === "cancelled")
      return step(await patch(id, customer, { action: "cancel", reason: "Changed my mind" })).then(() => id);
    if (state === "not-possible")
      return step(await patch(id, dealer, { action: "decline", reason: "No support for this gearbox" })).then(() => id);
    await step(await patch(id, dealer, quote));
    if (state === "quoted") return id;
    await pay(id);
    if (state === "paid") return id;
    if (state === "in-progress") return step(await patch(id, dealer, { action: "start" })).then(() => id);
    await step(await deliver(id));
    if (state === "delivered") return id;
    if (state === "accepted") return step(await patch(id, customer, { action: "accept" })).then(() => id);
    await step(await patch(id, customer, { action: "request-revision", note: "Misfires above 6,000 rpm" }));
    return id;
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, customer, stranger] = await createUsers(test, [
      "admin",
      ["dealer", "Ticket Dealer"],
      ["dealer", "Other Dealer"],
      ["customer", "Ticket Customer"],
      "customer",
    ]);
    await Promise.all([admin, dealer, otherDealer, customer, stranger].map((user) => call("GET", "/tune-files", user)));
    const [profile] = await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Ticket Tuning", status: "approved" })
      .returning();
    dealerId = profile.id;
    await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: otherDealer.uid, businessName: "Other Tuning", status: "approved" });
    await readyPayouts(app, dealer.uid);
    await storeFirmware(admin, demo);
    await storeFirmware(admin, other);
  });
  afterAll(async () => test?.close());

  it("asks a dealer for a tune for a car with a stock read of the software it runs, refusing what is missing by name", async () => {
    const bare = await car(customer, false);
    const noRead = await ask(bare);
    expect(noRead.statusCode).toBe(422);
    expect(noRead.json().data[0]).toMatchObject({
      path: "vehicleId",
      message: expect.stringContaining("no stock read"),
    });
    const strangersCar = await car(stranger);
    expect((await ask(strangersCar)).json().data[0]).toMatchObject({ path: "vehicleId" });
    expect((await ask(await car(), { dealerId: "00000000-0000-4000-8000-000000000000" })).json().data[0]).toMatchObject(
      { path: "dealerId" },
    );
    expect(
      (await ask(await car(), { questionnaire: { ...QUESTIONNAIRE, fuel: "kerosene" } })).json().data[0],
    ).toMatchObject({ path: "questionnaire.fuel" });
    const [foreignLog] = await app.ctx.db
      .insert(dataLogs)
      .values({
        ownerUid: stranger.uid,
        title: "not yours",
        format: "generic-csv",
        fileName: "x.csv",
        fileSha256: "0".repeat(64),
        fileSize: 1,
        columnsSha256: "1".repeat(64),
        columnsSize: 1,
        rowCount: 1,
        durationSeconds: 1,
        channels: [],
        meta: {},
      } as never)
      .returning();
    expect((await ask(await car(), { logIds: [foreignLog.id] })).json().data[0]).toMatchObject({ path: "logIds" });
    expect(
      await app.ctx.db
        .select({ n: count() })
        .from(tuningRequests)
        .then(([r]) => r.n),
    ).toBe(0);

    // The car read again after being flashed elsewhere: the stock read is of other software.
    const reflashed = await car();
    await app.ctx.db
      .update(userVehicles)
      .set({ firmwareId: other.firmware.firmwareId })
      .where(eq(userVehicles.id, reflashed));
    const stale = await ask(reflashed);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().data[0].message).toContain("read the stock again");

    const vehicleId = await car();
    const before = await notified(dealer.uid);
    const made = await ask(vehicleId);
    expect(made.statusCode, made.body).toBe(201);
    const ticket = made.json();
    expect(ticket).toMatchObject({
      state: "submitted",
      reference: expect.stringMatching(/^TR-\d+$/),
      dealerName: "Ticket Tuning",
      firmwareId: demo.firmware.firmwareId,
      questionnaire: QUESTIONNAIRE,
      actions: expect.arrayContaining(["cancel", "message"]),
    });
    expect(ticket.vehicle.stockSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(ticket.files).toEqual([expect.objectContaining({ kind: "stock-read", sender: "customer" })]);
    expect(ticket.events).toEqual([expect.objectContaining({ kind: "submitted", to: "submitted", actor: "customer" })]);
    expect(await notified(dealer.uid)).toBe(before + 1);

    // The dealer now reaches the car (and its stock read), in the queue; nobody else does.
    expect((await call("GET", `/user-vehicles/${vehicleId}`, dealer)).statusCode).toBe(200);
    expect((await call("GET", `/user-vehicles/${vehicleId}`, otherDealer)).statusCode).toBe(404);
    expect((await call("GET", `/tuning-requests/${ticket.id}/files/${ticket.files[0].id}`, dealer)).statusCode).toBe(
      200,
    );
    expect(
      ((await call("GET", "/tuning-requests?state[eq]=submitted", dealer)).json().data as { id: string }[]).map(
        (r) => r.id,
      ),
    ).toContain(ticket.id);
    expect((await call("GET", "/tuning-requests", otherDealer)).json().total).toBe(0);
    expect((await call("GET", `/tuning-requests/${ticket.id}`, stranger)).statusCode).toBe(404);
    expect((await patch(ticket.id, stranger, { action: "message", text: "hi" })).statusCode).toBe(404);
    expect((await call("GET", `/user-vehicles/${vehicleId}/tuning-requests`, customer)).json().total).toBe(1);
  });

  it("moves by every action only from its states and by its side: legal moves succeed, illegal ones answer 409 naming the state and leave the request as it was", async () => {
    const bodies: Record<Exclude<TuningRequestActionName, "deliver" | "cancel-paid">, object> = {
      quote: QUOTE,
      decline: { action: "decline", reason: "Not possible on this software" },
      cancel: { action: "cancel", reason: "Changed my mind" },
      start: { action: "start" },
      "request-revision": { action: "request-revision", note: "More low-end torque" },
      accept: { action: "accept" },
    };
    const sides = [
      { name: "customer", user: () => customer, party: "customer" as const },
      { name: "dealer", user: () => dealer, party: "dealer" as const },
      { name: "admin", user: () => admin, party: "dealer" as const },
    ];
    const states: TuningRequestState[] = [
      "submitted",
      "quoted",
      "paid",
      "in-progress",
      "delivered",
      "revision-requested",
      "accepted",
      "not-possible",
      "cancelled",
    ];
    let legal = 0;
    let illegal = 0;
    for (const state of states) {
      const probe = await requestIn(state);
      for (const side of sides) {
        for (const action of Object.keys(bodies) as (keyof typeof bodies)[]) {
          // A dealer's cancel after payment is the refunding one; the table names it so.
          const rule =
            action === "cancel" &&
            side.party === "dealer" &&
            ["paid", "in-progress", "delivered", "revision-requested"].includes(state)
              ? "cancel-paid"
              : action;
          const expected = nextState(state, rule, side.party);
          if ("to" in expected) {
            const fresh = await requestIn(state);
            const moved = await patch(fresh, side.user(), bodies[action]);
            expect(moved.statusCode, `${side.name} ${action} on ${state}: ${moved.body}`).toBe(200);
            expect(moved.json().state, `${side.name} ${action} on ${state}`).toBe(expected.to);
            legal += 1;
          } else {
            const row = await stateOf(probe);
            const refused = await patch(probe, side.user(), bodies[action]);
            expect(refused.statusCode, `${side.name} ${action} on ${state}: ${refused.body}`).toBe(409);
            expect(refused.json().description).toContain(`the request is ${state}`);
            expect(await stateOf(probe)).toEqual(row);
            illegal += 1;
          }
        }
        // Delivery is its own route, with the same rule.
        const canDeliver = "to" in nextState(state, "deliver", side.party);
        const delivered = await deliver(canDeliver ? await requestIn(state) : probe, side.user());
        expect(delivered.statusCode, `${side.name} deliver on ${state}: ${delivered.body}`).toBe(
          canDeliver ? 201 : 409,
        );
      }
    }
    expect(legal).toBeGreaterThan(15);
    expect(illegal).toBeGreaterThan(100);
    expect(Object.keys(TUNING_REQUEST_ACTIONS)).toContain("cancel-paid");
  }, 240_000);

  it("pays a quote through the marketplace: one open order, the request paid by the provider's event, the ledger written", async () => {
    const id = await requestIn("submitted");
    expect((await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id })).statusCode).toBe(
      409,
    );
    await patch(id, dealer, QUOTE);
    expect((await call("POST", "/payments/tuning-request-order", dealer, { tuningRequestId: id })).statusCode).toBe(
      403,
    );
    expect(
      (await call("POST", "/payments/tuning-request-order", stranger, { tuningRequestId: id })).json().data[0].path,
    ).toBe("tuningRequestId");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().order.id)).size).toBe(1);
    const order = answers[0].json().order;
    expect(order).toMatchObject({
      kind: "tuning-request",
      tuningRequestId: id,
      amountCents: 45000,
      currency: "EUR",
      feeCents: 4500,
    });
    // The quote cannot change under a checkout.
    expect((await patch(id, dealer, { ...QUOTE, priceCents: 1000 })).statusCode).toBe(409);
    expect(
      (await call("POST", "/payments/sandbox/pay", customer, { orderId: order.id, cardNumber: "4242 4242 4242 4242" }))
        .statusCode,
    ).toBe(200);
    const paid = (await call("GET", `/tuning-requests/${id}`, customer)).json();
    expect(paid).toMatchObject({ state: "paid", orderId: order.id });
    expect(paid.events.at(-1)).toMatchObject({ kind: "transition", from: "quoted", to: "paid", actor: "customer" });
    const ledger = await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id));
    expect(
      ledger.map((e) => [e.userUid === customer.uid ? "customer" : "dealer", e.kind, e.amountCents]).sort(),
    ).toEqual([
      ["customer", "payment", -45000],
      ["dealer", "fee", -4500],
      ["dealer", "sale", 45000],
    ]);
    expect((await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id })).statusCode).toBe(
      409,
    );
  });

  it("delivers revisions as versions of the request's tune, licensed to the car at once, read as map changes against stock and the previous revision", async () => {
    const id = await requestIn("in-progress");
    const wrong = await deliver(id, dealer, other.tune.image);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().data[0].message).toContain(`not ${demo.firmware.firmwareId}`);
    expect(
      await app.ctx.db
        .select()
        .from(tuningRequestFiles)
        .where(and(eq(tuningRequestFiles.requestId, id), eq(tuningRequestFiles.kind, "revision"))),
    ).toEqual([]);
    expect((await stateOf(id)).state).toBe("in-progress");
    const broken = new Uint8Array(demo.tune.image);
    // A byte inside the first checksum's first range, its checksum left as it was.
    broken[Number(demo.firmware.checksums[0].ranges[0][0]) + 1] ^= 0xff;
    expect((await deliver(id, dealer, broken)).statusCode).toBe(422);

    const first = await deliver(id, dealer, demo.tune.image, "Stage 2 base");
    expect(first.statusCode, first.body).toBe(201);
    const ticket = first.json();
    expect(ticket).toMatchObject({ state: "delivered", revisions: 1, freeRevisionDays: 21 });
    expect(ticket.revisionList).toHaveLength(1);
    const changedTitles = demo.tune.changedItems.map(
      (itemId) => demo.firmware.definition.items.find((item) => item.id === itemId)!.title,
    );
    expect(ticket.revisionList[0].changesFromStock.map((c: { title: string }) => c.title).sort()).toEqual(
      [...changedTitles].sort(),
    );
    expect(
      ticket.revisionList[0].changesFromStock.every(
        (c: { cells: number; maxDelta: number }) => c.cells > 0 && c.maxDelta > 0,
      ),
    ).toBe(true);
    expect(ticket.revisionList[0].changesFromPrevious).toBeNull();
    const row = await stateOf(id);
    const licences = await app.ctx.db
      .select()
      .from(tuneFilePurchases)
      .where(and(eq(tuneFilePurchases.tuneFileId, row.tuneFileId!), eq(tuneFilePurchases.vehicleId, row.vehicleId!)));
    expect(licences).toHaveLength(1);
    expect(licences[0].orderId).toBe(ticket.orderId);
    // The car's licences list it, so the flash flow offers it.
    expect(
      (
        (await call("GET", `/user-vehicles/${row.vehicleId}/tune-files/purchases`, customer)).json().data as {
          tuneFileId: string;
        }[]
      ).map((l) => l.tuneFileId),
    ).toContain(row.tuneFileId);
    // Bytes only within the dealer's protection: by default the customer flashes, never downloads.
    const revisionFile = ticket.revisionList[0].fileId;
    expect((await call("GET", `/tuning-requests/${id}/files/${revisionFile}`, customer)).statusCode).toBe(403);
    expect((await call("GET", `/tuning-requests/${id}/files/${revisionFile}`, dealer)).statusCode).toBe(200);

    await patch(id, customer, { action: "request-revision", note: "Knock in 5th gear" });
    const tweaked = new Uint8Array(demo.tune.image);
    const item = demo.firmware.definition.items.find((entry) => entry.id === demo.tune.changedItems[0])!;
    const address = Number((item as unknown as { z: { address: number | string } }).z.address);
    tweaked[address] ^= 0x01;
    // Changed by hand, so its checksums no longer hold: the dealer asks for them to be fixed.
    expect((await deliver(id, dealer, tweaked, "Less timing in 5th")).statusCode).toBe(422);
    const second = await deliver(id, dealer, tweaked, "Less timing in 5th", { fixChecksums: "true" });
    expect(second.statusCode, second.body).toBe(201);
    const revised = second.json();
    expect(revised.revisions).toBe(2);
    expect(revised.revisionList[1].changesFromPrevious).toEqual([expect.objectContaining({ id: item.id, cells: 1 })]);
    expect((await stateOf(id)).revisions).toBe(2);
    expect(
      await app.ctx.db.select().from(tuneFilePurchases).where(eq(tuneFilePurchases.tuneFileId, row.tuneFileId!)),
    ).toHaveLength(1);
  });

  it("checks a revision with dryRun as it would be delivered, storing nothing, and tells a wrong size in the request's terms", async () => {
    const id = await requestIn("in-progress");
    const revisionsOf = () =>
      app.ctx.db
        .select()
        .from(tuningRequestFiles)
        .where(and(eq(tuningRequestFiles.requestId, id), eq(tuningRequestFiles.kind, "revision")));
    // The demo firmware is generated at 64 KiB above; twice that is the file a dealer picks for the wrong car.
    const doubled = new Uint8Array(128 * 1024);
    doubled.set(demo.tune.image);
    for (const fields of [{ dryRun: "true" }, {}] as Record<string, string>[]) {
      const refused = await deliver(id, dealer, doubled, "Revision", fields);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({
        message: "Wrong size",
        description: `This request is for ${demo.firmware.firmwareId} (64 KiB); this file is 128 KiB`,
        data: [
          { path: "file", message: `This request is for ${demo.firmware.firmwareId} (64 KiB); this file is 128 KiB` },
        ],
      });
    }

    const checked = await deliver(id, dealer, demo.tune.image, "Stage 2 base", { dryRun: "true" });
    expect(checked.statusCode, checked.body).toBe(200);
    const changedTitles = demo.tune.changedItems.map(
      (itemId) => demo.firmware.definition.items.find((item) => item.id === itemId)!.title,
    );
    expect(checked.json()).toMatchObject({
      revision: 1,
      firmwareId: demo.firmware.firmwareId,
      size: 64 * 1024,
      checksumsFixed: false,
      changesFromPrevious: null,
    });
    expect(checked.json().checksums.length).toBe(demo.firmware.checksums.length);
    expect(checked.json().checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
    expect(
      checked
        .json()
        .changesFromStock.map((c: { title: string }) => c.title)
        .sort(),
    ).toEqual([...changedTitles].sort());

    const broken = new Uint8Array(demo.tune.image);
    // A byte inside the first checksum's first range, its checksum left as it was.
    broken[Number(demo.firmware.checksums[0].ranges[0][0]) + 1] ^= 0xff;
    const failing = await deliver(id, dealer, broken, "Revision", { dryRun: "true" });
    expect(failing.statusCode, failing.body).toBe(422);
    expect(failing.json().message).toBe("Checksum does not verify");
    const fixed = await deliver(id, dealer, broken, "Revision", { dryRun: "true", fixChecksums: "true" });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().checksumsFixed).toBe(true);
    expect(fixed.json().checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);

    expect(await revisionsOf()).toEqual([]);
    expect(await stateOf(id)).toMatchObject({ state: "in-progress", revisions: 0 });
    expect((await deliver(id, dealer, demo.tune.image, "Revision", { dryRun: "maybe" })).statusCode).toBe(400);
  });

  it("gives free revisions for the dealer's window after the first delivery, then refuses them naming the date", async () => {
    const id = await requestIn("delivered");
    await app.ctx.db
      .update(tuningRequests)
      .set({ firstDeliveredAt: new Date(Date.now() - 22 * DAY_MS) })
      .where(eq(tuningRequests.id, id));
    const late = await patch(id, customer, { action: "request-revision", note: "One more" });
    expect(late.statusCode).toBe(409);
    expect(late.json().description).toMatch(
      /free revisions ended on \d{4}-\d{2}-\d{2} \(21 days after the first delivery\)/,
    );
    expect((await stateOf(id)).state).toBe("delivered");
    // A dealer with a longer window quotes it to new requests.
    const [profile] = await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, dealer.uid));
    expect(
      (await call("PATCH", `/dealers/${profile.id}/settings`, otherDealer, { freeRevisionDays: 60 })).statusCode,
    ).toBe(404);
    expect(
      (await call("PATCH", `/dealers/${profile.id}/settings`, dealer, { freeRevisionDays: 400 })).json().data[0].path,
    ).toBe("freeRevisionDays");
    expect(
      (await call("PATCH", `/dealers/${profile.id}/settings`, dealer, { freeRevisionDays: 60 })).json()
        .freeRevisionDays,
    ).toBe(60);
    const longer = await requestIn("delivered");
    await app.ctx.db
      .update(tuningRequests)
      .set({ firstDeliveredAt: new Date(Date.now() - 22 * DAY_MS) })
      .where(eq(tuningRequests.id, longer));
    expect((await patch(longer, customer, { action: "request-revision", note: "One more" })).statusCode).toBe(200);
    await call("PATCH", `/dealers/${profile.id}/settings`, dealer, { freeRevisionDays: 21 });
  });

  it("accepts a delivery nobody answered for seven days, by the clock the test holds", async () => {
    const id = await requestIn("delivered");
    const quiet = await requestIn("revision-requested");
    const reference = (await stateOf(id)).number;
    const toldOf = async () =>
      (await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, customer.uid))).filter((n) =>
        n.title.startsWith(`TR-${reference}:`),
      ).length;
    const customerTold = await toldOf();
    expect(await acceptSilentDeliveries(app.ctx, new Date(Date.now() + (AUTO_ACCEPT_DAYS - 1) * DAY_MS))).not.toContain(
      id,
    );
    expect((await stateOf(id)).state).toBe("delivered");
    const moved = await acceptSilentDeliveries(app.ctx, new Date(Date.now() + (AUTO_ACCEPT_DAYS + 1) * DAY_MS));
    expect(moved).toContain(id);
    expect(moved).not.toContain(quiet);
    const ticket = (await call("GET", `/tuning-requests/${id}`, customer)).json();
    expect(ticket.state).toBe("accepted");
    expect(ticket.events.at(-1)).toMatchObject({ actor: "system", from: "delivered", to: "accepted" });
    expect(await toldOf()).toBe(customerTold + 1);
    expect(await acceptSilentDeliveries(app.ctx, new Date(Date.now() + 30 * DAY_MS))).not.toContain(id);
  });

  it("runs the auto-accept as the queue's scheduled job: a delivery older than seven days is accepted, a newer one left", async () => {
    const old = await requestIn("delivered");
    const recent = await requestIn("delivered");
    await app.ctx.db
      .update(tuningRequests)
      .set({ lastDeliveredAt: new Date(Date.now() - (AUTO_ACCEPT_DAYS + 1) * DAY_MS) })
      .where(eq(tuningRequests.id, old));
    await app.ctx.db
      .update(tuningRequests)
      .set({ lastDeliveredAt: new Date(Date.now() - (AUTO_ACCEPT_DAYS - 1) * DAY_MS) })
      .where(eq(tuningRequests.id, recent));
    // What the schedule does every 10 minutes (schedules are off in tests): queue the job.
    const jobId = await app.ctx.jobs.send("tuning-requests.auto-accept");
    await app.ctx.jobs.idle();
    const job = await app.ctx.jobs.get(jobId);
    expect(job).toMatchObject({ state: "succeeded", result: { accepted: expect.any(Number) } });
    expect(job!.result!.accepted).toBeGreaterThanOrEqual(1);
    expect((await stateOf(old)).state).toBe("accepted");
    expect((await stateOf(recent)).state).toBe("delivered");
  });

  it("refunds the payment when the dealer cancels or finds it not possible after payment: the ledger reversed, the revisions' licence gone", async () => {
    const id = await requestIn("delivered");
    const row = await stateOf(id);
    const [order] = await app.ctx.db.select().from(orders).where(eq(orders.tuningRequestId, id));
    expect((await patch(id, customer, { action: "cancel", reason: "Too slow" })).statusCode).toBe(409);
    const cancelled = await patch(id, dealer, { action: "cancel", reason: "Cannot make it run clean" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: "cancelled", closedReason: "Cannot make it run clean" });
    const [refunded] = await app.ctx.db.select().from(orders).where(eq(orders.id, order.id));
    expect(refunded).toMatchObject({ status: "refunded", refundReason: "Cannot make it run clean" });
    const ledger = await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id));
    expect(ledger.reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
    expect(
      await app.ctx.db.select().from(tuneFilePurchases).where(eq(tuneFilePurchases.tuneFileId, row.tuneFileId!)),
    ).toEqual([]);

    const declined = await requestIn("in-progress");
    const answer = await patch(declined, dealer, { action: "decline", reason: "This software has no usable maps" });
    expect(answer.json().state).toBe("not-possible");
    const [declinedOrder] = await app.ctx.db.select().from(orders).where(eq(orders.tuningRequestId, declined));
    expect(declinedOrder.status).toBe("refunded");

    // Cancelled before payment with a checkout open: the checkout closes, so nobody pays a closed request.
    const open = await requestIn("quoted");
    const checkout = (await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: open })).json();
    expect((await patch(open, customer, { action: "cancel", reason: "Found another tuner" })).statusCode).toBe(200);
    expect((await app.ctx.db.select().from(orders).where(eq(orders.id, checkout.order.id)))[0].status).toBe("expired");
  });

  it("carries messages, files and the assignment on the thread, counts what the other side has not read, and streams the ticket as it changes", async () => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const id = await requestIn("submitted");
    const stream = await listen(port, `/api/v1/tuning-requests/${id}/listen`, bearer(customer.token));
    expect(stream.status).toBe(200);
    expect((await stream.next("changed")).data).toMatchObject({ id, state: "submitted" });
    expect((await patch(id, dealer, { action: "message", text: "Which gearbox software?" })).statusCode).toBe(200);
    expect((await stream.next("changed")).data).toMatchObject({
      events: expect.arrayContaining([
        expect.objectContaining({ kind: "message", actor: "dealer", text: "Which gearbox software?" }),
      ]),
    });
    stream.close();
    expect((await call("GET", `/tuning-requests/${id}`, customer)).json().unread).toBe(1);
    expect((await call("GET", `/tuning-requests/${id}`, dealer)).json().unread).toBe(0);
    expect((await patch(id, customer, { action: "read" })).json().unread).toBe(0);

    const sent = await upload(
      `/tuning-requests/${id}/files`,
      customer,
      new TextEncoder().encode("gearbox: ZF8HP, software 1234"),
      { text: "Photo of the gearbox label" },
      "gearbox.txt",
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const attachment = (sent.json().files as { kind: string; id: string; name: string }[]).find(
      (file) => file.kind === "attachment",
    )!;
    expect(attachment.name).toBe("gearbox.txt");
    const downloaded = await call("GET", `/tuning-requests/${id}/files/${attachment.id}`, dealer);
    expect(downloaded.body).toBe("gearbox: ZF8HP, software 1234");
    expect((await call("GET", `/tuning-requests/${id}`, dealer)).json().unread).toBe(1);

    const assigned = await patch(id, dealer, { action: "assign", assignee: "Sam (calibration)" });
    expect(assigned.json()).toMatchObject({ assignee: "Sam (calibration)" });
    expect((await patch(id, customer, { action: "assign", assignee: "Me" })).statusCode).toBe(403);
    expect((await patch(id, dealer, { action: "message", text: "" })).json().data[0].path).toBe("text");
    expect((await patch(id, dealer, { action: "teleport" })).statusCode).toBe(400);

    const vehicleId = (await stateOf(id)).vehicleId!;
    const files = (await call("GET", `/user-vehicles/${vehicleId}/tuning-request-files`, customer)).json();
    expect(files.data.map((f: { kind: string; sender: string }) => `${f.kind}:${f.sender}`).sort()).toEqual([
      "attachment:customer",
      "stock-read:customer",
    ]);
    expect((await call("GET", `/user-vehicles/${vehicleId}/tuning-request-files`, otherDealer)).statusCode).toBe(404);
  });

  it("lets the dealer read the logs a customer attached, and nobody else", async () => {
    const [log] = await app.ctx.db
      .insert(dataLogs)
      .values({
        ownerUid: customer.uid,
        title: "pull in 3rd",
        format: "generic-csv",
        fileName: "pull.csv",
        fileSha256: "a".repeat(64),
        fileSize: 1,
        columnsSha256: "b".repeat(64),
        columnsSize: 1,
        rowCount: 1,
        durationSeconds: 1,
        channels: [],
        meta: {},
      } as never)
      .returning();
    expect((await call("GET", `/data-logs/${log.id}`, dealer)).statusCode).toBe(404);
    const made = await ask(await car(), { logIds: [log.id] });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().logIds).toEqual([log.id]);
    expect((await call("GET", `/data-logs/${log.id}`, dealer)).statusCode).toBe(200);
    expect((await call("GET", `/data-logs/${log.id}`, otherDealer)).statusCode).toBe(404);
    // Reading is not changing: the log's markers are listed as not the dealer's to change.
    expect((await call("PATCH", `/data-logs/${log.id}`, dealer, { title: "mine now" })).statusCode).toBe(404);
    const markers = await call("GET", `/data-logs/${log.id}/markers`, dealer);
    expect(markers.statusCode, markers.body).toBe(200);
    expect(markers.json().writable).toBe(false);
    expect(
      (await call("POST", `/data-logs/${log.id}/markers`, dealer, { startSeconds: 0, note: "x" })).statusCode,
    ).toBe(404);
  });
  it("makes the quote's days the ticket's due date: a re-quote moves it, payment counts them again, and the queue sorts and filters by it", async () => {
    const id = await requestIn("submitted");
    const quoted = (await patch(id, dealer, QUOTE)).json();
    expect(quoted.dueAt).toBe(new Date(Date.parse(quoted.quote.quotedAt) + 5 * DAY_MS).toISOString());
    const requoted = (await patch(id, dealer, { ...QUOTE, expectedDays: 2 })).json();
    expect(requoted.dueAt).toBe(new Date(Date.parse(requoted.quote.quotedAt) + 2 * DAY_MS).toISOString());
    await pay(id);
    const paid = (await call("GET", `/tuning-requests/${id}`, customer)).json();
    const paidAt = paid.events.find((event: { to: string | null }) => event.to === "paid").at;
    expect(paid.dueAt).toBe(new Date(Date.parse(paidAt) + 2 * DAY_MS).toISOString());
    const later = await requestIn("in-progress");
    const unquoted = await requestIn("submitted");
    expect((await stateOf(unquoted)).dueAt).toBeNull();

    const queue = async (query: string) => {
      const answer = await call("GET", `/tuning-requests?pageSize=100&${query}`, dealer);
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().data as Array<{ id: string; dueAt: string | null }>).map((row) => row.id);
    };
    const byDue = await queue("sort=dueAt");
    expect(byDue.indexOf(id)).toBeLessThan(byDue.indexOf(later));
    // Undated tickets come after every dated one.
    expect(byDue.indexOf(later)).toBeLessThan(byDue.indexOf(unquoted));
    const dueSoon = await queue(
      `state[in]=paid,in-progress&dueAt[lt]=${new Date(Date.now() + 3 * DAY_MS).toISOString()}`,
    );
    expect(dueSoon).toContain(id);
    expect(dueSoon).not.toContain(later);
    const refused = await call("GET", "/tuning-requests?dueAt[lt]=tomorrow", dealer);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data[0].path).toBe("dueAt[lt]");
  });

  it("tells the dealer once a day before a ticket is due and once when it is late, with two instances sweeping at once; a delivered one is not late", async () => {
    const on = await call("PATCH", `/auth/account/${dealer.uid}`, dealer, {
      preferences: { emailNotifications: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    // Due in a day, before every other ticket of the file, so the sweeps below reach these alone.
    const owed = await requestIn("in-progress", { ...QUOTE, expectedDays: 1 });
    const delivered = await requestIn("delivered", { ...QUOTE, expectedDays: 1 });
    const dueAt = (await stateOf(owed)).dueAt!.getTime();
    const [owedRef, deliveredRef] = await Promise.all(
      [owed, delivered].map(async (id) => `TR-${(await stateOf(id)).number}`),
    );
    const toldOf = async (title: string) =>
      (await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, dealer.uid))).filter(
        (n) => n.title === title,
      );
    const second = await startTestApp(kind, {}, { sharing: test });
    try {
      /** Both instances sweep at the same moment; answers how often each ticket was told of, by threshold. */
      const sweep = async (at: number) => {
        const runs = await Promise.all(
          [app, app, second.app, second.app].map((one) => noticeDueRequests(one.ctx, new Date(at))),
        );
        const times = (key: "dueSoon" | "late", id: string) =>
          runs.flatMap((run) => run[key]).filter((x) => x === id).length;
        return {
          soon: times("dueSoon", owed),
          late: times("late", owed),
          delivered: times("late", delivered) + times("dueSoon", delivered),
        };
      };
      expect(await sweep(dueAt - 2 * DAY_MS)).toEqual({ soon: 0, late: 0, delivered: 0 });
      expect(await sweep(dueAt - DAY_MS / 2)).toEqual({ soon: 1, late: 0, delivered: 0 });
      expect(await sweep(dueAt - DAY_MS / 4)).toEqual({ soon: 0, late: 0, delivered: 0 });
      expect(await sweep(dueAt + 60_000)).toEqual({ soon: 0, late: 1, delivered: 0 });
      expect(await sweep(dueAt + DAY_MS)).toEqual({ soon: 0, late: 0, delivered: 0 });
      // The dealer asked for mail: the late notice is mailed too, by whichever instance's queue takes
      // it, so both are still running while it is awaited.
      const mail = await waitForMail(dealer.email, 1, 20_000, `${owedRef}: late`);
      expect(mail).toHaveLength(1);
      expect(mail[0].text).toContain("not delivered yet");
    } finally {
      await second.app.ctx.mail.idle();
      await second.app.ctx.jobs.idle();
      await second.close();
    }
    const [soonNotice] = await toldOf(`${owedRef}: due within a day`);
    expect(soonNotice).toMatchObject({ kind: "tuning-request.due-soon", link: `/tuning-requests/show/${owed}` });
    expect(await toldOf(`${owedRef}: late`)).toHaveLength(1);
    expect(await toldOf(`${deliveredRef}: late`)).toEqual([]);

    // What the schedule does every 10 minutes (schedules are off in tests): queue the sweep.
    const jobId = await app.ctx.jobs.send("tuning-requests.due-notices");
    await app.ctx.jobs.idle();
    expect(await app.ctx.jobs.get(jobId)).toMatchObject({
      state: "succeeded",
      result: { dueSoon: expect.any(Number), late: expect.any(Number) },
    });
  });
});
