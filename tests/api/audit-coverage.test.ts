/**
 * Every change an admin makes, or a dealer makes to someone else's data, writes exactly one
 * audit row in the change's transaction, with the request's id (the answer's X-Request-Id);
 * an owner changing their own data and a refused request write none.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, gt, max, sql } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, dealerProfiles, ledgerEntries, secretReveals } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { carMaker } from "./support/flashing-setup";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { multipart } from "./support/multipart";
import { readyPayouts } from "./support/payments-setup";
import { firmwareRecordOf, requestsTo } from "./support/requests";

const QUESTIONNAIRE = {
  fuel: "98",
  transmission: "automatic",
  intake: "stock",
  exhaust: "stock",
  turbo: "stock",
  intercooler: "stock",
  targetPowerHp: 300,
  notes: "Daily driver",
};
const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "COVER64K" });

describe.each(apiDatabases)("audit coverage on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload } = requestsTo(() => app);
  const car = carMaker(
    requestsTo(() => app),
    demo,
    "WCVRZ",
  );
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;

  const lastId = async () => (await app.ctx.db.select({ id: max(auditEvents.id) }).from(auditEvents))[0].id ?? 0;
  const rowsAfter = async (id: number) =>
    app.ctx.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id);

  /** The request answers `status` and writes exactly one row, matching `expected`, with the answer's request id. */
  async function audited(
    act: () => Promise<LightMyRequestResponse>,
    status: number,
    expected: Record<string, unknown>,
  ) {
    const mark = await lastId();
    const response = await act();
    expect(response.statusCode, response.body).toBe(status);
    const rows = await rowsAfter(mark);
    expect(rows.map((row) => row.action)).toEqual([expected.action]);
    const requestId = response.headers["x-request-id"];
    expect(requestId).toEqual(expect.any(String));
    expect(rows[0]).toMatchObject({ ...expected, requestId });
    return { response, row: rows[0] };
  }

  /** The request answers `status` and writes no row. */
  async function notAudited(act: () => Promise<LightMyRequestResponse>, status: number) {
    const mark = await lastId();
    const response = await act();
    expect(response.statusCode, response.body).toBe(status);
    expect((await rowsAfter(mark)).map((row) => row.action)).toEqual([]);
    return response;
  }

  const asAdmin = () => ({ actorUid: admin.uid, actorRole: "admin" });

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer] = await createUsers(test, [
      ["admin", "Cover Admin"],
      ["dealer", "Cover Dealer"],
      ["customer", "Cover Customer"],
    ]);
  });
  afterAll(async () => test?.close());

  it("gives every API answer its own request id, refusals included", async () => {
    const [one, two, refused, unknown] = await Promise.all([
      call("GET", "/tune-files", customer),
      call("GET", "/tune-files", customer),
      call("GET", "/audit-events", null),
      call("GET", "/no-such-route", admin),
    ]);
    expect([refused.statusCode, unknown.statusCode]).toEqual([401, 404]);
    const ids = [one, two, refused, unknown].map((response) => response.headers["x-request-id"]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(4);
  });

  describe("the firmware catalogue (admins only)", () => {
    let recordId: string;

    it("records a firmware record's creation, the fields an update changed (the definition as a digest), and its files", async () => {
      const created = await audited(
        () => call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(demo)),
        201,
        {
          ...asAdmin(),
          action: "firmware-support.created",
          targetType: "firmware-support",
          before: null,
          after: {
            firmwareId: "COVER64K",
            manufacturer: "Bosch",
            definition: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          },
        },
      );
      recordId = created.response.json().id;
      expect(created.row.targetId).toBe(recordId);
      const updated = await audited(
        () => call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(demo, { notes: "checked" })),
        200,
        {
          action: "firmware-support.updated",
          targetId: recordId,
        },
      );
      expect(updated.row.before).toEqual({ notes: "" });
      expect(updated.row.after).toEqual({ notes: "checked" });
      await notAudited(
        () => call("PUT", "/firmware-support/firmware-support", admin, { ...firmwareRecordOf(demo), imageSize: "big" }),
        400,
      );
      await notAudited(() => call("PUT", "/firmware-support/firmware-support", dealer, firmwareRecordOf(demo)), 403);

      const stock = await audited(
        () => upload(`/firmware-support/firmware-support/${recordId}/stock-file`, admin, demo.stock),
        200,
        { action: "firmware-support.stock-file-uploaded", targetId: recordId },
      );
      expect(stock.row.before).toEqual({ stockFile: null });
      expect(stock.row.after).toEqual({
        stockFile: { sha256: stock.response.json().stockFile.sha256, size: demo.stock.length },
      });
      await notAudited(
        () => upload(`/firmware-support/firmware-support/${recordId}/stock-file`, admin, demo.stock.subarray(1)),
        422,
      );

      const body = multipart([{ name: "file", filename: "boot.bin", content: new Uint8Array(512).fill(7) }]);
      const bootloader = await audited(
        () =>
          app.inject({
            method: "POST",
            url: `/api/v1/firmware-support/flashing-support/${recordId}/bootloader`,
            headers: { ...bearer(admin.token), ...body.headers },
            payload: body.payload,
          }),
        200,
        { action: "firmware-support.bootloader-uploaded", targetId: recordId, before: { bootloader: null } },
      );
      expect(bootloader.row.after).toMatchObject({ bootloader: { size: 512, name: "boot.bin" } });

      const flashing = {
        firmwareId: "COVER64K",
        enabled: true,
        profile: {
          securityLevel: 0x11,
          seedKeyAlgorithm: "xor-rotate-32",
          requestCanId: "0x7E0",
          responseCanId: "0x7E8",
          p2TimeoutMs: 50,
          p2StarTimeoutMs: 5000,
        },
        blocks: [
          { name: "CAL", number: 1, baseAddress: "0x8000", length: 0x8000, fileOffset: 0x8000, transferSize: 0xffd },
        ],
      };
      const enabled = await audited(() => call("PUT", "/firmware-support/flashing-support", admin, flashing), 200, {
        action: "firmware-support.flashing-changed",
        targetId: recordId,
      });
      expect(enabled.row.before).toMatchObject({ flashingEnabled: false, flashing: null, blocks: [] });
      expect(enabled.row.after).toMatchObject({
        flashingEnabled: true,
        flashing: { seedKeyAlgorithm: "xor-rotate-32" },
      });
      await notAudited(
        () =>
          call("PUT", "/firmware-support/flashing-support", admin, {
            ...flashing,
            blocks: [{ ...flashing.blocks[0], length: 0x20000 }],
          }),
        400,
      );
    });

    it("records that a stored password was revealed, and its changes, never the secret", async () => {
      const secret = "audit-s3cr3t";
      const created = await audited(
        () =>
          call("PUT", "/firmware-support/password-storage", admin, {
            firmwareId: "COVER64K",
            label: "SA2",
            securityLevel: 0x11,
            secret,
          }),
        201,
        {
          ...asAdmin(),
          action: "stored-password.created",
          targetType: "stored-password",
          after: { firmwareId: "COVER64K", label: "SA2", securityLevel: 0x11 },
        },
      );
      const id = created.response.json().id as string;
      const revealed = await audited(
        () => call("POST", `/firmware-support/password-storage/${id}/reveal`, admin),
        200,
        { ...asAdmin(), action: "stored-password.revealed", targetId: id },
      );
      expect(revealed.response.json().secret).toBe(secret);
      const changed = await audited(
        () =>
          call("PUT", "/firmware-support/password-storage", admin, {
            id,
            firmwareId: "COVER64K",
            label: "SA2",
            securityLevel: 0x11,
            secret: "another",
          }),
        200,
        {
          action: "stored-password.updated",
          after: { secretChanged: true },
        },
      );
      const removed = await audited(() => call("DELETE", `/firmware-support/password-storage/${id}`, admin), 204, {
        action: "stored-password.deleted",
        targetId: id,
        after: null,
      });
      for (const row of [created.row, revealed.row, changed.row, removed.row])
        expect(JSON.stringify(row)).not.toMatch(/audit-s3cr3t|another/);
      await notAudited(() => call("POST", `/firmware-support/password-storage/${id}/reveal`, admin), 404);
      await notAudited(() => call("POST", `/firmware-support/password-storage/${id}/reveal`, dealer), 403);
    });

    it("records tune-file patches, PID imports and definition imports", async () => {
      const patch = { ...demo.patches[0], id: undefined };
      const created = await audited(() => call("PUT", "/tune-file-patches", admin, patch), 201, {
        ...asAdmin(),
        action: "tune-file-patch.created",
        targetType: "tune-file-patch",
        before: null,
        after: { title: patch.title },
      });
      const id = created.response.json().id as string;
      const renamed = await audited(
        () => call("PUT", "/tune-file-patches", admin, { ...patch, id, title: "Renamed" }),
        200,
        { action: "tune-file-patch.updated", targetId: id },
      );
      expect(renamed.row.before).toEqual({ title: patch.title });
      expect(renamed.row.after).toEqual({ title: "Renamed" });
      await notAudited(() => call("PUT", "/tune-file-patches", admin, { ...patch, firmwareIds: ["NOPE"] }), 400);
      await audited(() => call("DELETE", `/tune-file-patches/${id}`, admin), 204, {
        action: "tune-file-patch.deleted",
        targetId: id,
        before: { title: "Renamed" },
        after: null,
      });

      const csv =
        "Name,Unit,Equation,Format,Address,Length,Signed,ProgMin,ProgMax,WarnMin,WarnMax,Smoothing,Enabled,Tabs,Assign To\nCover flow,kg/hr,x,%01.0f,0x2032,2,FALSE,0,2000,-1000,5000,0,TRUE,Airflow,\n";
      const imported = await audited(
        () =>
          call("POST", "/firmware-support/pid-descriptors/import", admin, { csv, dryRun: false, skipInvalid: true }),
        201,
        { ...asAdmin(), action: "pid-descriptor.imported" },
      );
      expect(imported.row.after).toMatchObject({ imported: imported.response.json().imported });
      await notAudited(
        () => call("POST", "/firmware-support/pid-descriptors/import", admin, { csv, dryRun: true }),
        200,
      );

      const entry = demo.patches[1].entries[0];
      const xml =
        `<XDFFORMAT><XDFHEADER><REGION size="0x10000" /></XDFHEADER>` +
        `<XDFPATCH><title>From XDF</title><XDFPATCHENTRY name="e" address="0x${entry.address.toString(16)}" datasize="${entry.patch.length / 2}" patchdata="${entry.patch}" basedata="${entry.base}" /></XDFPATCH></XDFFORMAT>`;
      await notAudited(
        () => call("POST", "/tune-file-patches/import-xdf", admin, { firmwareId: "COVER64K", xml }),
        200,
      );
      const stored = await audited(
        () => call("POST", "/tune-file-patches/import-xdf", admin, { firmwareId: "COVER64K", xml, dryRun: false }),
        201,
        {
          action: "firmware-support.definition-imported",
          targetType: "firmware-support",
          before: null,
        },
      );
      expect(stored.row.after).toEqual({ patchIds: [stored.response.json().patches[0].id] });
      await call("DELETE", `/tune-file-patches/${stored.response.json().patches[0].id}`, admin);
    });

    it("records a firmware record's removal", async () => {
      const other = generateDemo({ size: 64 * 1024, itemCount: 2, patchEntries: 1, firmwareId: "GONE64K" });
      const id = (await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(other))).json()
        .id as string;
      await notAudited(() => call("DELETE", `/firmware-support/firmware-support/${id}`, dealer), 403);
      await audited(() => call("DELETE", `/firmware-support/firmware-support/${id}`, admin), 204, {
        action: "firmware-support.deleted",
        targetId: id,
        before: { firmwareId: "GONE64K" },
        after: null,
      });
    });
  });

  describe("cars, tunes, bakes and licences", () => {
    let vehicleId: string;
    let tuneId: string;

    it("records an admin's or a dealer's changes to a customer's car, not the owner's own", async () => {
      vehicleId = await car(customer);
      await notAudited(() => call("PATCH", `/user-vehicles/${vehicleId}`, customer, { name: "Mine" }), 200);
      const renamed = await audited(
        () => call("PATCH", `/user-vehicles/${vehicleId}`, admin, { name: "Renamed by support", notes: "" }),
        200,
        {
          ...asAdmin(),
          action: "vehicle.updated",
          targetType: "vehicle",
          targetId: vehicleId,
          subjectUid: customer.uid,
        },
      );
      expect(renamed.row.before).toEqual({ name: "Mine" });
      expect(renamed.row.after).toEqual({ name: "Renamed by support" });
      await notAudited(() => call("PATCH", `/user-vehicles/${vehicleId}`, admin, { name: "" }), 400);
      await notAudited(
        () =>
          call("PATCH", `/users/${customer.uid}/vehicles/${vehicleId}/device-attributes`, customer, {
            appSettings: { units: "metric" },
          }),
        200,
      );
      await audited(
        () =>
          call("PATCH", `/users/${customer.uid}/vehicles/${vehicleId}/device-attributes`, admin, {
            appSettings: { units: "imperial" },
          }),
        200,
        {
          action: "vehicle.device-attributes-changed",
          subjectUid: customer.uid,
          before: { appSettings: { units: "metric" } },
          after: { appSettings: { units: "imperial" } },
        },
      );

      await notAudited(() => upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock), 200);
      await notAudited(() => upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, dealer, demo.stock), 404);
      await audited(() => upload(`/user-vehicles/${vehicleId}/upload-tune-dump/1`, admin, demo.stock), 200, {
        action: "vehicle.stock-read-replaced",
        subjectUid: customer.uid,
        before: { stockDumpSlot: 0 },
        after: { stockDumpSlot: 1, firmwareId: "COVER64K" },
      });
    });

    it("records licences given to a customer's car and an admin's changes to a dealer's tune", async () => {
      const made = await notAudited(
        () => upload("/tune-files", dealer, demo.tune.image, { title: "Cover stage 1" }),
        201,
      );
      tuneId = made.json().id;
      // The dealer does not reach the car yet: refused like an unknown car, nothing written.
      await notAudited(() => call("POST", `/tune-files/${tuneId}/grant`, dealer, { vehicleId }), 400);
      await audited(() => call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId }), 201, {
        ...asAdmin(),
        action: "licence.granted",
        targetType: "licence",
        subjectUid: customer.uid,
        after: { tuneFileId: tuneId, vehicleId, title: "Cover stage 1" },
      });
      await notAudited(() => call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId }), 200);
      const second = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover stage 2" })).json()
        .id as string;
      await audited(() => call("POST", `/tune-files/${second}/grant`, dealer, { vehicleId }), 201, {
        actorUid: dealer.uid,
        actorRole: "dealer",
        action: "licence.granted",
        subjectUid: customer.uid,
      });

      await notAudited(() => call("PATCH", `/tune-files/${tuneId}`, dealer, { description: "mine" }), 200);
      const edited = await audited(
        () => call("PATCH", `/tune-files/${tuneId}`, admin, { title: "Cover stage 1 (fixed)" }),
        200,
        {
          ...asAdmin(),
          action: "tune-file.updated",
          targetType: "tune-file",
          targetId: tuneId,
          subjectUid: dealer.uid,
        },
      );
      expect(edited.row.before).toEqual({ title: "Cover stage 1" });
      expect(edited.row.after).toEqual({ title: "Cover stage 1 (fixed)" });
      await notAudited(() => call("PATCH", `/tune-files/${tuneId}`, customer, { title: "Stolen" }), 403);
      await notAudited(
        () => call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: 0, currency: "EUR" }),
        200,
      );
      await notAudited(() => call("PUT", `/tune-files/${tuneId}/unpublish`, dealer), 200);
      await audited(
        () =>
          call("PUT", `/tune-files/${tuneId}/publish`, admin, { priceCents: 0, currency: "EUR", mayDownload: false }),
        200,
        {
          action: "tune-file.published",
          subjectUid: dealer.uid,
          before: { published: false },
          after: { published: true },
        },
      );
      await audited(() => call("PUT", `/tune-files/${tuneId}/unpublish`, admin), 200, {
        action: "tune-file.unpublished",
        before: { published: true },
        after: { published: false },
      });
      await audited(() => upload(`/tune-files/${tuneId}/blob`, admin, demo.tune.image, { version: "1.1" }), 200, {
        action: "tune-file.version-added",
        before: { currentVersion: 1 },
        after: { currentVersion: 2, label: "1.1" },
      });
      const draft = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover draft" })).json()
        .id as string;
      await audited(() => call("DELETE", `/tune-files/${draft}`, admin), 204, {
        action: "tune-file.deleted",
        targetId: draft,
        subjectUid: dealer.uid,
        before: { title: "Cover draft" },
        after: null,
      });
      const own = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover own" })).json().id as string;
      await notAudited(() => call("DELETE", `/tune-files/${own}`, dealer), 204);
      const admins = await audited(() => upload("/tune-files", admin, demo.tune.image, { title: "Admin tune" }), 201, {
        ...asAdmin(),
        action: "tune-file.created",
        targetType: "tune-file",
        before: null,
        after: { title: "Admin tune", published: false },
      });
      expect(admins.row.targetId).toBe(admins.response.json().id);
      await notAudited(() => upload("/tune-files", admin, demo.stock.subarray(1), { title: "Wrong size" }), 422);
    });

    it("records bakes made on a customer's car by its dealer, and their removal", async () => {
      await notAudited(
        () => call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: tuneId }),
        201,
      );
      const baked = await audited(
        () => call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, dealer, { tuneFileId: tuneId }),
        201,
        {
          actorUid: dealer.uid,
          action: "baked-tune-file.created",
          targetType: "baked-tune-file",
          subjectUid: customer.uid,
          after: { vehicleId, tuneFileId: tuneId, temporary: true },
        },
      );
      const bakeId = baked.response.json().id as string;
      expect(baked.row.targetId).toBe(bakeId);
      await notAudited(
        () =>
          call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, dealer, {
            tuneFileId: "00000000-0000-4000-8000-000000000000",
          }),
        400,
      );
      await audited(() => call("DELETE", `/baked-tune-files/${bakeId}`, dealer), 204, {
        actorUid: dealer.uid,
        action: "baked-tune-file.deleted",
        targetId: bakeId,
        subjectUid: customer.uid,
        before: { tuneFileId: tuneId },
      });
      const own = (
        await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: tuneId })
      ).json().id as string;
      await notAudited(() => call("DELETE", `/baked-tune-files/${own}`, customer), 204);
      await audited(() => call("POST", "/baked-tune-files/rebake-all", admin), 202, {
        ...asAdmin(),
        action: "job.started",
        targetType: "job",
        after: { kind: "rebake-all" },
      });
      await notAudited(() => call("POST", "/baked-tune-files/rebake-all", dealer), 403);
      await audited(() => call("POST", "/status/background/collect-blobs", admin), 202, {
        action: "job.started",
        targetType: "job",
      });
    });

    it("records a licence removed by its dealer, a refund asked by an admin, a cancelled checkout and a balance adjustment", async () => {
      const removal = { tuneFileId: tuneId, reason: "sold by mistake" };
      await notAudited(() => call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, customer, removal), 403);
      await notAudited(
        () => call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, dealer, { ...removal, reason: "" }),
        400,
      );
      await audited(() => call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, dealer, removal), 200, {
        actorUid: dealer.uid,
        actorRole: "dealer",
        action: "licence.removed",
        targetType: "licence",
        subjectUid: customer.uid,
        before: { tuneFileId: tuneId, vehicleId, orderId: null, grantedBy: admin.uid },
        after: { reason: "sold by mistake" },
      });

      await app.ctx.db
        .insert(dealerProfiles)
        .values({ userUid: dealer.uid, businessName: "Cover Tuning", status: "approved" })
        .onConflictDoNothing();
      await readyPayouts(app, dealer.uid);
      const priced = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover paid" })).json()
        .id as string;
      expect(
        (await call("PUT", `/tune-files/${priced}/publish`, dealer, { priceCents: 9900, currency: "EUR" })).statusCode,
      ).toBe(200);
      const paidCar = await car(customer);
      const order = (
        await notAudited(
          () => call("POST", "/payments/tune-file-order", customer, { tuneFileId: priced, vehicleId: paidCar }),
          201,
        )
      ).json().order;
      await notAudited(
        () => call("POST", "/payments/sandbox/pay", customer, { orderId: order.id, cardNumber: "4242 4242 4242 4242" }),
        200,
      );
      await audited(
        () =>
          call("POST", `/user-vehicles/${paidCar}/tune-files/purchases`, admin, {
            tuneFileId: priced,
            reason: "goodwill refund",
          }),
        200,
        {
          ...asAdmin(),
          action: "licence.refund-requested",
          subjectUid: customer.uid,
          before: { tuneFileId: priced, orderId: order.id, orderStatus: "paid", amountCents: 9900, currency: "EUR" },
          after: { reason: "goodwill refund" },
        },
      );

      const openCar = await car(customer);
      const open = (
        await call("POST", "/payments/tune-file-order", customer, { tuneFileId: priced, vehicleId: openCar })
      ).json().order;
      await audited(() => call("POST", "/payments/expire-session", admin, { orderId: open.id }), 200, {
        action: "order.cancel-requested",
        targetType: "order",
        targetId: open.id,
        subjectUid: customer.uid,
        before: { status: "created" },
      });
      const mine = (
        await call("POST", "/payments/tune-file-order", customer, { tuneFileId: priced, vehicleId: openCar })
      ).json().order;
      await notAudited(() => call("POST", "/payments/expire-session", customer, { orderId: mine.id }), 200);

      const adjusted = await audited(
        () =>
          call("POST", `/users/${customer.uid}/transaction`, admin, {
            amountCents: 500,
            currency: "EUR",
            reason: "sorry for the wait",
          }),
        201,
        {
          ...asAdmin(),
          action: "ledger.adjusted",
          targetType: "ledger-entry",
          subjectUid: customer.uid,
          after: { amountCents: 500, currency: "EUR", reason: "sorry for the wait" },
        },
      );
      expect(adjusted.row.targetId).toBe(String(adjusted.response.json().id));
      await notAudited(
        () =>
          call("POST", `/users/${customer.uid}/transaction`, customer, {
            amountCents: 500,
            currency: "EUR",
            reason: "free money",
          }),
        403,
      );
    });
  });

  describe("support requests", () => {
    it("records an admin's answer and state change, not the asking", async () => {
      const asked = await notAudited(
        () =>
          call("POST", "/user-vehicles/support-request", customer, {
            vin: "WVWZZZ1KZAW000001",
            make: "Volkswagen",
            model: "Golf",
            year: 2012,
            ecuIds: ["COVER64K"],
          }),
        201,
      );
      const id = asked.json().id as string;
      await audited(
        () =>
          call("PATCH", `/user-vehicles/support-request/${id}`, admin, {
            status: "investigating",
            note: "looking at it",
          }),
        200,
        {
          ...asAdmin(),
          action: "support-request.updated",
          targetType: "support-request",
          targetId: id,
          subjectUid: customer.uid,
          before: { status: "new" },
          after: { status: "investigating", note: "looking at it" },
        },
      );
      await notAudited(() => call("PATCH", `/user-vehicles/support-request/${id}`, admin, { status: "new" }), 409);
      await notAudited(() => call("PATCH", `/user-vehicles/support-request/${id}`, dealer, { note: "hi" }), 403);
    });
  });

  describe("repositories and data logs", () => {
    it("records an admin's edits of a dealer's repository and every access given or withdrawn, not a member leaving", async () => {
      const repo = (await notAudited(() => call("POST", "/repositories", dealer, { name: "Cover team" }), 201)).json();
      await notAudited(() => call("PATCH", `/repositories/${repo.id}`, dealer, { description: "Our maps" }), 200);
      await audited(() => call("PATCH", `/repositories/${repo.id}`, admin, { freeForMembers: true }), 200, {
        ...asAdmin(),
        action: "repository.updated",
        targetType: "repository",
        targetId: repo.id,
        subjectUid: dealer.uid,
        before: { freeForMembers: false },
        after: { freeForMembers: true },
      });
      await audited(() => call("POST", `/repositories/${repo.id}/members`, dealer, { email: customer.email }), 201, {
        actorUid: dealer.uid,
        action: "repository.access-granted",
        targetId: repo.id,
        subjectUid: customer.uid,
        after: { userUid: customer.uid, repository: "Cover team" },
      });
      await notAudited(() => call("POST", `/users/${customer.uid}/repository-access/${repo.id}`, dealer), 200);
      await notAudited(() => call("POST", `/users/${customer.uid}/repository-access/${repo.id}`, customer), 404);
      await audited(() => call("DELETE", `/users/${customer.uid}/repository-access/${repo.id}`, admin), 204, {
        ...asAdmin(),
        action: "repository.access-withdrawn",
        subjectUid: customer.uid,
        before: { userUid: customer.uid, grantedBy: dealer.uid },
      });
      await audited(() => call("POST", `/users/${customer.uid}/repository-access/${repo.id}`, admin), 201, {
        ...asAdmin(),
        action: "repository.access-granted",
        subjectUid: customer.uid,
      });
      await notAudited(() => call("DELETE", `/users/${customer.uid}/repository-access/${repo.id}`, customer), 204);
      await audited(() => call("DELETE", `/repositories/${repo.id}`, admin), 204, {
        action: "repository.deleted",
        targetId: repo.id,
        subjectUid: dealer.uid,
        before: { name: "Cover team" },
        after: null,
      });
      const own = (await call("POST", "/repositories", dealer, { name: "Cover own" })).json();
      await notAudited(() => call("DELETE", `/repositories/${own.id}`, dealer), 204);
      const admins = await audited(() => call("POST", "/repositories", admin, { name: "Admin picks" }), 201, {
        ...asAdmin(),
        action: "repository.created",
        subjectUid: admin.uid,
        before: null,
        after: { name: "Admin picks", freeForMembers: false },
      });
      expect(admins.row.targetId).toBe(admins.response.json().id);
      await notAudited(() => call("POST", "/repositories", admin, { name: "Admin picks" }), 409);
    });

    it("records an admin's edits, share links and removal of someone's data log, not the owner's", async () => {
      const content = readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/logs/ecumaster.csv"));
      const body = multipart([{ name: "file", filename: "ecumaster.csv", content }]);
      const made = await notAudited(
        () =>
          app.inject({
            method: "POST",
            url: "/api/v1/data-logs",
            payload: body.payload,
            headers: { ...body.headers, ...bearer(customer.token) },
          }),
        201,
      );
      const logId = made.json().id as string;
      const title = made.json().title as string;
      await notAudited(() => call("PATCH", `/data-logs/${logId}`, customer, { notes: "pull in 3rd" }), 200);
      await notAudited(() => call("PATCH", `/data-logs/${logId}`, dealer, { notes: "mine now" }), 404);
      await audited(
        () => call("PATCH", `/data-logs/${logId}`, admin, { title: "Renamed by support", notes: "pull in 3rd" }),
        200,
        {
          ...asAdmin(),
          action: "data-log.updated",
          targetType: "data-log",
          targetId: logId,
          subjectUid: customer.uid,
          before: { title },
          after: { title: "Renamed by support" },
        },
      );
      const shared = await audited(() => call("POST", `/data-logs/${logId}/share`, admin, {}), 201, {
        ...asAdmin(),
        action: "data-log.shared",
        targetId: logId,
        subjectUid: customer.uid,
      });
      const { id: shareId, token } = shared.response.json();
      expect(shared.row.after).toMatchObject({ shareId, channels: [], expiresAt: null });
      expect(JSON.stringify(shared.row)).not.toContain(token);
      await audited(() => call("DELETE", `/data-logs/${logId}/shares/${shareId}`, admin), 204, {
        action: "data-log.share-revoked",
        targetId: logId,
        before: { shareId },
      });
      const mine = (await notAudited(() => call("POST", `/data-logs/${logId}/share`, customer, {}), 201)).json();
      await notAudited(() => call("DELETE", `/data-logs/${logId}/shares/${mine.id}`, customer), 204);
      const marked = await audited(
        () => call("POST", `/data-logs/${logId}/markers`, admin, { startSeconds: 0.5, note: "Seen by support" }),
        201,
        { ...asAdmin(), action: "data-log.marker-added", targetId: logId, subjectUid: customer.uid },
      );
      const markerId = marked.response.json().id as string;
      await audited(
        () => call("PATCH", `/data-logs/${logId}/markers/${markerId}`, admin, { note: "Checked by support" }),
        200,
        {
          action: "data-log.marker-updated",
          targetId: logId,
          before: { markerId, note: "Seen by support" },
          after: { markerId, note: "Checked by support" },
        },
      );
      await audited(() => call("DELETE", `/data-logs/${logId}/markers/${markerId}`, admin), 204, {
        action: "data-log.marker-deleted",
        targetId: logId,
      });
      const own = (
        await notAudited(
          () => call("POST", `/data-logs/${logId}/markers`, customer, { startSeconds: 0, note: "Mine" }),
          201,
        )
      ).json();
      await notAudited(
        () => call("PATCH", `/data-logs/${logId}/markers/${own.id}`, customer, { note: "Still mine" }),
        200,
      );
      await notAudited(() => call("POST", `/data-logs/${logId}/markers`, customer, { startSeconds: 0, note: "" }), 400);
      await audited(() => call("DELETE", `/data-logs/${logId}`, admin), 204, {
        ...asAdmin(),
        action: "data-log.deleted",
        targetId: logId,
        subjectUid: customer.uid,
        before: { title: "Renamed by support", fileName: "ecumaster.csv" },
        after: null,
      });
      await notAudited(() => call("DELETE", `/data-logs/${logId}`, admin), 404);
    });
  });

  describe("tuning requests", () => {
    const ask = async () => {
      const vehicleId = await car(customer);
      expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(
        200,
      );
      const [profile] = await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, dealer.uid));
      const made = await notAudited(
        () =>
          call("POST", "/tuning-requests", customer, { vehicleId, dealerId: profile.id, questionnaire: QUESTIONNAIRE }),
        201,
      );
      return made.json().id as string;
    };
    const patch = (id: string, user: TestUser, body: object) => call("PATCH", `/tuning-requests/${id}`, user, body);
    const QUOTE = { action: "quote", priceCents: 30000, currency: "EUR", expectedDays: 3, note: "Stage 1 on 98" };

    it("records the dealer's moves of a customer's request, an admin's message, never the customer's own moves", async () => {
      const id = await ask();
      await notAudited(() => patch(id, dealer, { action: "start" }), 409);
      const quoted = await audited(() => patch(id, dealer, QUOTE), 200, {
        actorUid: dealer.uid,
        actorRole: "dealer",
        action: "tuning-request.quote",
        targetType: "tuning-request",
        targetId: id,
        subjectUid: customer.uid,
      });
      expect(quoted.row.before).toEqual({
        state: "submitted",
        quotePriceCents: null,
        quoteCurrency: null,
        quoteExpectedDays: null,
      });
      expect(quoted.row.after).toEqual({
        state: "quoted",
        quotePriceCents: 30000,
        quoteCurrency: "EUR",
        quoteExpectedDays: 3,
        said: "Stage 1 on 98",
      });
      await notAudited(() => patch(id, customer, { action: "message", text: "Thanks" }), 200);
      await notAudited(() => patch(id, dealer, { action: "message", text: "You are welcome" }), 200);
      await notAudited(() => patch(id, customer, { action: "read" }), 200);
      await audited(() => patch(id, admin, { action: "message", text: "Support here" }), 200, {
        ...asAdmin(),
        action: "tuning-request.message",
        subjectUid: customer.uid,
        before: {},
        after: { said: "Support here" },
      });
      await audited(() => patch(id, dealer, { action: "assign", assignee: "Sam" }), 200, {
        action: "tuning-request.assign",
        before: { assignee: null },
        after: { assignee: "Sam" },
      });

      const opened = (await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: id })).json();
      await notAudited(
        () =>
          call("POST", "/payments/sandbox/pay", customer, {
            orderId: opened.order.id,
            cardNumber: "4242 4242 4242 4242",
          }),
        200,
      );
      await audited(() => patch(id, dealer, { action: "start" }), 200, {
        action: "tuning-request.start",
        before: { state: "paid" },
        after: { state: "in-progress" },
      });
      const delivered = await audited(
        () =>
          upload(`/tuning-requests/${id}/revisions`, dealer, demo.tune.image, { note: "First cut" }, "revision.bin"),
        201,
        {
          actorUid: dealer.uid,
          action: "tuning-request.deliver",
          subjectUid: customer.uid,
          before: { state: "in-progress", revisions: 0, tuneFileId: null },
        },
      );
      expect(delivered.row.after).toMatchObject({
        state: "delivered",
        revisions: 1,
        tuneFileId: expect.any(String),
        said: "First cut",
      });
      await notAudited(() => patch(id, customer, { action: "accept" }), 200);
    });

    it("records a dealer's decline and a paid request cancelled by its dealer with the refund", async () => {
      const declined = await ask();
      await audited(() => patch(declined, dealer, { action: "decline", reason: "No support for this gearbox" }), 200, {
        action: "tuning-request.decline",
        subjectUid: customer.uid,
        before: { state: "submitted", closedReason: null },
        after: {
          state: "not-possible",
          closedReason: "No support for this gearbox",
          said: "No support for this gearbox",
        },
      });
      const cancelledByCustomer = await ask();
      await notAudited(
        () => patch(cancelledByCustomer, customer, { action: "cancel", reason: "Changed my mind" }),
        200,
      );

      const paid = await ask();
      expect((await patch(paid, dealer, QUOTE)).statusCode).toBe(200);
      const opened = (await call("POST", "/payments/tuning-request-order", customer, { tuningRequestId: paid })).json();
      expect(
        (
          await call("POST", "/payments/sandbox/pay", customer, {
            orderId: opened.order.id,
            cardNumber: "4242 4242 4242 4242",
          })
        ).statusCode,
      ).toBe(200);
      const cancelled = await audited(
        () => patch(paid, dealer, { action: "cancel", reason: "Cannot do it after all" }),
        200,
        {
          actorUid: dealer.uid,
          action: "tuning-request.cancel",
          subjectUid: customer.uid,
        },
      );
      expect(cancelled.row.before).toMatchObject({ state: "paid" });
      expect(cancelled.row.after).toMatchObject({ state: "cancelled", said: "Cannot do it after all" });
    });
  });

  describe("flash history and notifications", () => {
    it("records a flash a dealer reports on a customer's car, not one the owner reports", async () => {
      const vehicleId = await car(customer);
      expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(
        200,
      );
      const sha256 = createHash("sha256").update(demo.stock).digest("hex");
      await notAudited(
        () => call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, { sha256, result: "success" }),
        201,
      );
      // The dealer reaches the car once they licensed a tune for it.
      const tune = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover flash" })).json().id as string;
      expect((await call("POST", `/tune-files/${tune}/grant`, admin, { vehicleId })).statusCode).toBe(201);
      const reported = await audited(
        () =>
          call("POST", `/user-vehicles/${vehicleId}/flash-logs`, dealer, {
            sha256,
            result: "failed",
            message: "lost connection",
          }),
        201,
        {
          actorUid: dealer.uid,
          action: "flash-log.reported",
          targetType: "vehicle",
          targetId: vehicleId,
          subjectUid: customer.uid,
          after: { kind: "stock", sha256, result: "failed", message: "lost connection" },
        },
      );
      expect(reported.row.after).toMatchObject({ flashLogId: reported.response.json().id });
      await notAudited(
        () =>
          call("POST", `/user-vehicles/${vehicleId}/flash-logs`, dealer, { sha256: "0".repeat(64), result: "success" }),
        422,
      );
    });

    it("records an admin changing what a user has read, not the user's own reading", async () => {
      const list = (await call("GET", `/users/${customer.uid}/notifications`, customer)).json();
      expect(list.data.length).toBeGreaterThan(1);
      const [first] = list.data;
      await notAudited(
        () => call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, customer, { read: true }),
        200,
      );
      await audited(
        () => call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, admin, { read: false }),
        200,
        {
          ...asAdmin(),
          action: "notification.read-changed",
          targetType: "notification",
          targetId: first.id,
          subjectUid: customer.uid,
          before: { read: true },
          after: { read: false },
        },
      );
      await notAudited(
        () => call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, dealer, { read: true }),
        403,
      );
      const marked = await audited(
        () => call("POST", `/users/${customer.uid}/notifications/mark-all-read`, admin),
        200,
        { ...asAdmin(), action: "notification.all-marked-read", targetId: customer.uid, subjectUid: customer.uid },
      );
      expect((marked.row.after as { notificationIds: string[] }).notificationIds).toContain(first.id);
      await notAudited(() => call("POST", `/users/${customer.uid}/notifications/mark-all-read`, admin), 200);
    });
  });

  describe("one transaction with the change", () => {
    it("rolls the change back when its audit row cannot be written", async () => {
      const vehicleId = await car(customer);
      expect((await call("PATCH", `/user-vehicles/${vehicleId}`, customer, { name: "Kept" })).statusCode).toBe(200);
      const tune = (await upload("/tune-files", dealer, demo.tune.image, { title: "Cover atomic" })).json()
        .id as string;
      const secret = (
        await call("PUT", "/firmware-support/password-storage", admin, {
          firmwareId: "COVER64K",
          label: "Atomic",
          securityLevel: 0x11,
          secret: "never-shown",
        })
      ).json().id as string;
      const ledger = async () =>
        (await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.userUid, customer.uid))).length;
      const reveals = async () =>
        (await app.ctx.db.select().from(secretReveals).where(eq(secretReveals.secretId, secret))).length;
      const entries = await ledger();
      const mark = await lastId();
      // The database refuses every new audit row for the length of this test.
      await app.ctx.db.execute(
        sql`CREATE FUNCTION refuse_audit_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused for the test'; END $$`,
      );
      await app.ctx.db.execute(
        sql`CREATE TRIGGER refuse_audit_for_test BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit_for_test()`,
      );
      try {
        expect((await call("PATCH", `/user-vehicles/${vehicleId}`, admin, { name: "Lost" })).statusCode).toBe(500);
        expect((await call("GET", `/user-vehicles/${vehicleId}`, customer)).json().name).toBe("Kept");
        const revealed = await call("POST", `/firmware-support/password-storage/${secret}/reveal`, admin);
        expect(revealed.statusCode).toBe(500);
        expect(revealed.body).not.toContain("never-shown");
        expect(await reveals()).toBe(0);
        expect(
          (
            await call("POST", `/users/${customer.uid}/transaction`, admin, {
              amountCents: 100,
              currency: "EUR",
              reason: "not kept",
            })
          ).statusCode,
        ).toBe(500);
        expect(await ledger()).toBe(entries);
        expect(
          (await call("PUT", `/tune-files/${tune}/publish`, admin, { priceCents: 0, currency: "EUR" })).statusCode,
        ).toBe(500);
        expect((await call("GET", `/tune-files/${tune}`, dealer)).json().published).toBe(false);
        // What nobody audits still works.
        expect((await call("PATCH", `/user-vehicles/${vehicleId}`, customer, { notes: "still mine" })).statusCode).toBe(
          200,
        );
      } finally {
        await app.ctx.db.execute(sql`DROP TRIGGER refuse_audit_for_test ON audit_events`);
        await app.ctx.db.execute(sql`DROP FUNCTION refuse_audit_for_test()`);
      }
      expect(await rowsAfter(mark)).toEqual([]);
    });
  });
});
