import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchState, readItem } from "../../domain/tune";
import {
  bakedTuneFiles,
  firmwareSupport,
  tuneFilePatches,
  tuneFilePurchases,
  tuneFiles,
  tuneFileVersions,
  userVehicles,
} from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { bearer, bothDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { multipart } from "./support/multipart";
import { readyPayouts } from "./support/payments-setup";
import { firmwareRecordOf, requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "TUNE64K" });
/** A second firmware, for "patch for another firmware". */
const other = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 4, firmwareId: "OTHER64K", seed: 7 });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Files left under a folder of the data directory (none when it was never made). */
const filesUnder = (dir: string) =>
  readdir(dir, { recursive: true, withFileTypes: true }).then(
    (entries) => entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)),
    () => [] as string[],
  );

/** An image whose first checksum no longer verifies (one byte flipped inside its range). */
function brokenChecksum(image: Uint8Array) {
  const broken = Uint8Array.from(image);
  const scheme = demo.firmware.checksums[0];
  broken[scheme.ranges[0][0] + 0x40] ^= 0x01;
  return { broken, scheme: scheme.name };
}

describe.each(bothDatabases)("tune files API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  const patchIds: string[] = [];
  let tuneId: string;
  let vehicleId: string;
  let firmwareRecordId: string;

  const rows = async (table: PgTable) => (await app.ctx.db.select({ n: count() }).from(table))[0].n;
  const blobs = () => filesUnder(path.join(app.ctx.config.dataDir, "blobs"));
  const temps = () => filesUnder(path.join(app.ctx.config.dataDir, "tmp"));

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, customer, stranger] = await createUsers(test, [
      "admin",
      "dealer",
      "dealer",
      "customer",
      "customer",
    ]);
    firmwareRecordId = await storeFirmware(admin, demo);
    await storeFirmware(admin, other, { stock: false });
    // Users reach the mirror on their first request; the vehicle row needs its owner there.
    await call("GET", "/tune-files", customer);
    await call("GET", "/tune-files", stranger);
    [{ id: vehicleId }] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: customer.uid, name: "Test hatch", vin: "WTEST000000000001" })
      .returning();
  });
  afterAll(async () => test?.close());

  describe("inspection", () => {
    it("identifies the stock image, verifies every checksum and finds no changes", async () => {
      const response = await upload("/tune-files/inspect", customer, demo.stock);
      expect(response.statusCode, response.body).toBe(200);
      const report = response.json();
      expect(report).toMatchObject({
        firmwareId: "TUNE64K",
        size: demo.stock.length,
        sha256: sha256(demo.stock),
        changes: [],
      });
      expect(report.checksums).toHaveLength(demo.firmware.checksums.length);
      expect(report.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
    });

    it("lists the tune's changes against stock with the maps they fall in", async () => {
      const report = (await upload("/tune-files/inspect", customer, demo.tune.image)).json();
      const items = new Set(report.changes.flatMap((c: { items: { id: string }[] }) => c.items.map((i) => i.id)));
      for (const id of demo.tune.changedItems) expect(items).toContain(id);
      const cell = report.changes.find((c: { items: unknown[] }) => c.items.length).items[0].cells[0];
      expect(cell).toEqual({
        row: expect.any(Number),
        col: expect.any(Number),
        before: expect.any(Number),
        after: expect.any(Number),
      });
    });

    it("reports a truncated image and an unknown firmware by name, storing nothing", async () => {
      const before = await blobs();
      const truncated = (await upload("/tune-files/inspect", customer, demo.stock.subarray(0, 60_000))).json();
      expect(truncated.firmwareId).toBeNull();
      expect(truncated.notes[0]).toContain("60000 bytes");
      const unknown = Uint8Array.from(demo.stock);
      unknown[0x100] ^= 0xff;
      const report = (await upload("/tune-files/inspect", customer, unknown)).json();
      expect(report.firmwareId).toBeNull();
      expect(report.notes[0]).toContain("unknown firmware");
      expect(await blobs()).toEqual(before);
      expect(await temps()).toEqual([]);
    });

    it("reports failing checksums without fixing them", async () => {
      const { broken, scheme } = brokenChecksum(demo.stock);
      const report = (await upload("/tune-files/inspect", customer, broken)).json();
      expect(report.checksums.find((c: { name: string }) => c.name === scheme)).toMatchObject({ valid: false });
    });
  });

  describe("tune-file patches", () => {
    it("stores the generator's patches (admin) and lists them by firmware", async () => {
      for (const patch of demo.patches) {
        const { id: _id, ...body } = patch;
        const response = await call("PUT", "/tune-file-patches", admin, body);
        expect(response.statusCode, response.body).toBe(201);
        patchIds.push(response.json().id);
      }
      const list = await call("GET", "/tune-file-patches?firmwareIds[eq]=TUNE64K&pageSize=50", dealer);
      expect(list.json().total).toBe(demo.patches.length);
      const renamed = await call("PUT", "/tune-file-patches", admin, {
        ...demo.patches[0],
        id: patchIds[0],
        title: "Renamed",
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await call("GET", `/tune-file-patches/${patchIds[0]}`, dealer)).json().title).toBe("Renamed");
    });

    it("refuses bad patches with the reason, storing nothing", async () => {
      const before = await rows(tuneFilePatches);
      const entry = demo.patches[0].entries[0];
      const overlapping = await call("PUT", "/tune-file-patches", admin, {
        title: "Overlap",
        firmwareIds: ["TUNE64K"],
        entries: [entry, { ...entry, address: entry.address + 1 }],
      });
      expect(overlapping.statusCode).toBe(400);
      expect(overlapping.json().data[0].message).toContain("overlaps");

      const unknownFirmware = await call("PUT", "/tune-file-patches", admin, {
        title: "X",
        firmwareIds: ["NOPE"],
        entries: [entry],
      });
      expect(unknownFirmware.statusCode).toBe(400);
      expect(unknownFirmware.json().description).toContain("NOPE");

      const wrongBase = await call("PUT", "/tune-file-patches", admin, {
        title: "Wrong base",
        firmwareIds: ["TUNE64K"],
        entries: [
          {
            address: entry.address,
            patch: entry.patch,
            base: entry.patch.replace(/^../, (b) => (b === "00" ? "01" : "00")),
          },
        ],
      });
      expect(wrongBase.statusCode).toBe(422);
      expect(wrongBase.json().description).toContain("stock file");

      const pastEnd = await call("PUT", "/tune-file-patches", admin, {
        title: "Past end",
        firmwareIds: ["TUNE64K"],
        entries: [{ address: 0xffff, patch: "0102", base: "0304" }],
      });
      expect(pastEnd.statusCode).toBe(400);
      expect(pastEnd.json().data[0].path).toBe("entries.0.address");

      const unknownField = await call("PUT", "/tune-file-patches", admin, {
        ...demo.patches[1],
        id: undefined,
        extra: 1,
      });
      expect(unknownField.statusCode).toBe(400);
      expect((await call("PUT", "/tune-file-patches", dealer, { ...demo.patches[1], id: undefined })).statusCode).toBe(
        403,
      );
      expect(await rows(tuneFilePatches)).toBe(before);
    });

    it("applies patches to an uploaded image with checksums fixed", async () => {
      const response = await upload("/tune-file-patches/apply", dealer, demo.stock, {
        patchIds: JSON.stringify(patchIds.slice(0, 2)),
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const image = new Uint8Array(Buffer.from(body.image, "base64"));
      expect(sha256(image)).toBe(body.sha256);
      expect(body.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
      expect(patchState(image, demo.patches[0]).state).toBe("applied");
      expect(patchState(image, demo.patches[1]).state).toBe("applied");
      expect(body.patches.map((p: { before: string }) => p.before)).toEqual(["absent", "absent"]);
    });

    it("answers a tool the patched bytes with the report in x-tune-report, and their SHA-256 in a trailer only when asked", async () => {
      const body = multipart([{ name: "file", filename: "stock.bin", content: demo.stock }], {
        patchIds: JSON.stringify(patchIds.slice(0, 2)),
      });
      const applyAsTool = (headers: Record<string, string> = {}) =>
        app.inject({
          method: "POST",
          url: "/api/v1/tune-file-patches/apply",
          headers: { ...bearer(dealer.token), ...body.headers, accept: "application/octet-stream", ...headers },
          payload: body.payload,
        });
      const response = await applyAsTool();
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toBe("application/octet-stream");
      const image = new Uint8Array(response.rawPayload);
      expect(image.length).toBe(demo.stock.length);
      expect(response.trailers["repr-digest"]).toBeUndefined();
      const report = JSON.parse(decodeURIComponent(String(response.headers["x-tune-report"])));
      expect(report).toMatchObject({ firmwareId: demo.firmware.firmwareId, size: demo.stock.length });
      expect(report.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
      expect(patchState(image, demo.patches[0]).state).toBe("applied");
      expect(patchState(image, demo.patches[1]).state).toBe("applied");
      expect(patchState(image, demo.patches[2]).state).toBe("absent");

      const asked = await applyAsTool({ "want-repr-digest": "sha-512=3, sha-256=5" });
      expect(Buffer.from(asked.rawPayload).equals(Buffer.from(image))).toBe(true);
      expect(asked.trailers["repr-digest"]).toBe(`sha-256=:${createHash("sha256").update(image).digest("base64")}:`);
    });

    it("answers 409 with the conflicting addresses, 400 for overlapping patches, 422 for another firmware or a failing checksum", async () => {
      const entry = demo.patches[0].entries[0];
      const conflicting = Uint8Array.from(demo.stock);
      const base = Buffer.from(entry.base, "hex");
      conflicting[entry.address] = base[0] ^ Buffer.from(entry.patch, "hex")[0] ^ 0xff;
      const conflict = await upload("/tune-file-patches/apply", dealer, conflicting, {
        patchIds: patchIds[0],
        fixChecksums: "true",
      });
      expect(conflict.statusCode, conflict.body).toBe(409);
      expect(conflict.json().data.conflicts[0].addresses).toContain(entry.address);

      const overlap = await call("PUT", "/tune-file-patches", admin, {
        title: "Overlaps patch 0",
        firmwareIds: ["TUNE64K"],
        entries: [entry],
      });
      expect(overlap.statusCode).toBe(201);
      const both = await upload("/tune-file-patches/apply", dealer, demo.stock, {
        patchIds: `${patchIds[0]},${overlap.json().id}`,
      });
      expect(both.statusCode).toBe(400);
      expect(both.json().message).toBe("Patches overlap");
      await call("DELETE", `/tune-file-patches/${overlap.json().id}`, admin);

      const foreign = await call("PUT", "/tune-file-patches", admin, { ...other.patches[0], id: undefined });
      expect(foreign.statusCode, foreign.body).toBe(201);
      const wrongFirmware = await upload("/tune-file-patches/apply", dealer, demo.stock, {
        patchIds: foreign.json().id,
      });
      expect(wrongFirmware.statusCode).toBe(422);
      expect(wrongFirmware.json().description).toContain("OTHER64K");

      const failing = await upload("/tune-file-patches/apply", dealer, brokenChecksum(demo.stock).broken, {
        patchIds: patchIds[0],
      });
      expect(failing.statusCode).toBe(422);
      expect(failing.json().description).toContain("fixChecksums=true");
      expect(
        (await upload("/tune-file-patches/apply", customer, demo.stock, { patchIds: patchIds[0] })).statusCode,
      ).toBe(403);
    });

    it("lists the firmware and tune files a patch is compatible with", async () => {
      const response = await call("GET", `/tune-file-patches/${patchIds[0]}/compatible`, admin);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().firmware).toEqual([{ firmwareId: "TUNE64K", known: true, stockState: "absent" }]);
    });

    it("imports an XDF: patches are stored only when asked; a patch without basedata takes its base from the stock file; a file with no patches imports", async () => {
      const xdf = (body: string) => `<XDFFORMAT><XDFHEADER><REGION size="0x10000" /></XDFHEADER>${body}</XDFFORMAT>`;
      const before = await rows(tuneFilePatches);
      const unknownFirmware = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "NOPE",
        xml: xdf(""),
      });
      expect(unknownFirmware.statusCode).toBe(422);
      const notXdf = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: "XDF\n1.100000\n",
      });
      expect(notXdf.statusCode, notXdf.body).toBe(200);
      expect(notXdf.json()).toMatchObject({ format: "xdf-1.x" });

      const entry = demo.patches[2].entries[0];
      const noBase = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: xdf(
          `<XDFPATCH><title>P</title><XDFPATCHENTRY name="e" address="0x${entry.address.toString(16)}" datasize="${entry.patch.length / 2}" patchdata="${entry.patch}" /></XDFPATCH>`,
        ),
      });
      expect(noBase.statusCode, noBase.body).toBe(200);
      expect(noBase.json().patches[0].entries).toEqual([
        { address: entry.address, patch: entry.patch, base: entry.base },
      ]);
      expect(noBase.json().warnings).toEqual([
        'XDFPATCH "P" on line 1: entry 1 "e": no basedata; base bytes read from the stock file',
      ]);

      const xml = xdf(
        `<XDFCONSTANT uniqueid="0x9"><title>Broken</title></XDFCONSTANT>` +
          `<XDFPATCH><title>From XDF</title><XDFPATCHENTRY name="e" address="0x${entry.address.toString(16)}" datasize="${entry.patch.length / 2}" patchdata="${entry.patch}" basedata="${entry.base}" /></XDFPATCH>`,
      );
      const preview = await call("POST", "/tune-file-patches/import-xdf", admin, { firmwareId: "TUNE64K", xml });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().patches[0]).toMatchObject({ title: "From XDF", firmwareIds: ["TUNE64K"] });
      expect(preview.json().skipped).toEqual([
        { element: "XDFCONSTANT", title: "Broken", uniqueId: "0x9", line: 1, reason: "missing EMBEDDEDDATA" },
      ]);
      expect(await rows(tuneFilePatches)).toBe(before);
      const stored = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml,
        dryRun: false,
      });
      expect(stored.statusCode, stored.body).toBe(201);
      expect(stored.json().saved).toEqual({ definition: false, checksums: [], refusedChecksums: [] });
      expect(await rows(tuneFilePatches)).toBe(before + 1);
      await call("DELETE", `/tune-file-patches/${stored.json().patches[0].id}`, admin);

      const noPatches = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: xdf(""),
        dryRun: false,
      });
      expect(noPatches.statusCode, noPatches.body).toBe(201);
      expect(noPatches.json()).toMatchObject({ patches: [], summary: { items: 0, patches: 0 } });
      expect(await rows(tuneFilePatches)).toBe(before);
    });

    it("imports an XDF as a firmware's definition with its checksum schemes when asked", async () => {
      const xml =
        `<XDFFORMAT><XDFHEADER><REGION size="0x10000" /><CATEGORY index="0" name="A" /><CATEGORY index="1" name="B" /></XDFHEADER>` +
        `<XDFCONSTANT><title>Rev limit</title><CATEGORYMEM index="0" category="1" /><CATEGORYMEM index="1" category="2" /><EMBEDDEDDATA mmedaddress="0x10" mmedelementsizebits="16" /><MATH equation="x*4"><VAR id="x" /></MATH></XDFCONSTANT>` +
        `<XDFCHECKSUM><title>Sum</title><REGION><datastart>0x0</datastart><dataend>0xFF</dataend><storeaddress>0x100</storeaddress><calculationmethod>0x0</calculationmethod></REGION></XDFCHECKSUM>` +
        `<XDFCHECKSUM><title>Plugin</title><REGION><pluginmoduleid>abc</pluginmoduleid></REGION></XDFCHECKSUM></XDFFORMAT>`;
      const response = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml,
        dryRun: false,
        saveDefinition: true,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().saved).toEqual({ definition: true, checksums: ["Sum"], refusedChecksums: [] });
      expect(response.json().skipped.map((s: { reason: string }) => s.reason)).toEqual([
        "not supported: Plugin (TunerPro plugin abc)",
      ]);
      const [row] = await app.ctx.db
        .select({ id: firmwareSupport.id })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, "OTHER64K"));
      const record = (await call("GET", `/firmware-support/firmware-support/${row.id}`, admin)).json();
      expect(record.definition.items).toEqual([
        {
          id: "Rev_limit",
          title: "Rev limit",
          kind: "constant",
          category: "a",
          categories: ["a", "b"],
          z: { address: 0x10, bits: 16, signed: false, endian: "big", float: false, toPhysical: "X*4" },
        },
      ]);
      expect(record.checksums.map((c: { name: string }) => c.name)).toEqual([
        ...other.firmware.checksums.map((c) => c.name),
        "Sum",
      ]);
      // Exported as an XDF, it imports again as the same items.
      const exported = await call("GET", `/firmware-support/firmware-support/${row.id}/definition.xdf`, admin);
      expect(exported.statusCode).toBe(200);
      expect(exported.headers["content-disposition"]).toContain("OTHER64K.xdf");
      const again = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml: exported.body,
        dryRun: true,
      });
      expect(again.json().definition.items).toEqual(record.definition.items);
      expect(
        (await call("GET", `/firmware-support/firmware-support/${row.id}/definition.xdf`, customer)).statusCode,
      ).toBe(403);
      // Put the record back as the other suites expect it.
      const restored = await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(other));
      expect(restored.statusCode, restored.body).toBe(200);
    });

    it("imports a RomRaider definition through the same endpoint: format and rom named, skips with reasons, maps read from the stock file on a dry run", async () => {
      const word = (at: number) => (demo.stock[at] << 8) | demo.stock[at + 1];
      const xml =
        `<?xml version="1.0"?><roms><rom><romid><xmlid>TUNEBASE</xmlid><filesize>64kb</filesize></romid>` +
        `<table type="3D" name="Boost" category="Boost" storagetype="uint16" endian="big" sizex="2" sizey="2"><scaling units="bar" expression="x*.001" to_byte="x/.001" format="0.000" />` +
        `<table type="X Axis" name="Load" storagetype="uint8"><scaling units="%" expression="x/2" /></table><table type="Static Y Axis" name="Gear"><data>1</data><data>2</data></table></table>` +
        `<table type="1D" name="Limit" category="Limits" storagetype="uint16"><scaling units="rpm" expression="x/4" format="#" /></table>` +
        `<table type="Switch" name="Odd switch" sizey="3"><state name="on" data="01 02 03" /></table>` +
        `</rom><rom base="TUNEBASE"><romid><xmlid>TUNE64K</xmlid></romid>` +
        `<table name="Boost" storageaddress="0x200"><table type="X Axis" storageaddress="0x1F0" /></table><table name="Limit" storageaddress="0x100" /><table name="Odd switch" storageaddress="0x300" />` +
        `<checksum type="alt2" start="0x0" end="0x100" /></rom></roms>`;
      const before = await rows(tuneFilePatches);
      const preview = await call("POST", "/tune-file-patches/import-xdf", admin, { firmwareId: "TUNE64K", xml });
      expect(preview.statusCode, preview.body).toBe(200);
      const answer = preview.json();
      expect(answer).toMatchObject({
        format: "romraider",
        rom: { xmlId: "TUNE64K", inherits: ["TUNEBASE"] },
        summary: { items: 2, byKind: { table2d: 1, constant: 1 }, skipped: 2 },
      });
      expect(answer.skipped.map((s: { title: string; reason: string }) => `${s.title}: ${s.reason}`)).toEqual([
        "Odd switch: a switch over 3 bytes cannot be shown as one value (1, 2 or 4 bytes)",
        "alt2: not supported: alt2 checksum",
      ]);
      const [boost, limit] = answer.samples;
      expect(boost).toMatchObject({
        id: "Boost",
        title: "Boost",
        kind: "table2d",
        rows: 2,
        cols: 2,
        unit: "bar",
        y: { labels: ["1", "2"] },
      });
      expect(boost.values.map((v: number) => Number(v.toFixed(3)))).toEqual(
        [0x200, 0x202, 0x204, 0x206].map((at) => Number((word(at) * 0.001).toFixed(3))),
      );
      expect(boost.x.values).toEqual([demo.stock[0x1f0] / 2, demo.stock[0x1f1] / 2]);
      expect(limit).toMatchObject({ id: "Limit", values: [word(0x100) / 4], unit: "rpm" });
      expect(await rows(tuneFilePatches)).toBe(before);

      const several = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: `<roms><rom><romid><xmlid>A</xmlid><filesize>64kb</filesize></romid></rom><rom><romid><xmlid>B</xmlid><filesize>64kb</filesize></romid></rom></roms>`,
      });
      expect(several.statusCode, several.body).toBe(400);
      expect(several.json()).toMatchObject({
        message: "Invalid definition",
        data: { code: "definition_invalid", roms: ["A", "B"] },
      });
      expect(several.json().description).toContain("the file describes 2 roms: A, B");
      const notADefinition = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: "<ROMDEF/>",
      });
      expect(notADefinition.statusCode).toBe(400);
      expect(notADefinition.json().description).toContain("a RomRaider/EcuFlash definition <roms> or <rom>");

      const saved = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml: xml.replace("<xmlid>TUNE64K</xmlid>", "<xmlid>OTHER64K</xmlid>"),
        dryRun: false,
        saveDefinition: true,
      });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json().saved).toEqual({ definition: true, checksums: [], refusedChecksums: [] });
      const [row] = await app.ctx.db
        .select({ definition: firmwareSupport.definition })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, "OTHER64K"));
      expect((row.definition as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual(["Boost", "Limit"]);
      const restored = await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(other));
      expect(restored.statusCode, restored.body).toBe(200);
    });

    it("imports an A2L through the same endpoint: ECU addresses moved by addressOffset, skips named, maps read from the stock file", async () => {
      const fixture = (name: string) =>
        readFileSync(new URL(`../../../shared/fixtures/new-formats/${name}`, import.meta.url), "latin1");
      const before = await rows(tuneFilePatches);
      // engine-ecu.a2l: its include is not uploaded, KI's FACTOR01 cannot be inverted, PUMCD is a MAP with one AXIS_DESCR.
      const engine = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: fixture("engine-ecu.a2l"),
        addressOffset: 0,
      });
      expect(engine.statusCode, engine.body).toBe(200);
      expect(engine.json()).toMatchObject({ format: "a2l", summary: { items: 0, skipped: 3 } });
      expect(engine.json().skipped.map((s: { title: string; line: number }) => `${s.title}@${s.line}`)).toEqual([
        "supp1_if.aml@7",
        "KI@56",
        "PUMCD@75",
      ]);
      expect(engine.json().skipped[2].reason).toBe("a MAP needs 2 AXIS_DESCR, it has 1");

      // The ASAM demo's data segment starts at ECU address 0x810000 and is 64 KiB, the record's image size.
      const preview = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: fixture("asap2-demo-v161.a2l"),
        addressOffset: 0x810000,
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const answer = preview.json();
      // Against the seeded stock file the two records that store their number of points (NO_AXIS_PTS_X) read a
      // number past the A2L's maximum from it, and are skipped for it: 35 items without a stock file, 33 here.
      expect(answer.summary).toMatchObject({ items: 33, skipped: 19 });
      expect(
        answer.skipped
          .filter((s: { reason: string }) => s.reason.startsWith("the stock image holds"))
          .map((s: { title: string }) => s.title),
      ).toEqual(["ASAM.C.CURVE_AXIS", "ASAM.C.MAP.STD_AXIS.STD_AXIS"]);
      expect(
        answer.skipped.find((s: { title: string }) => s.title === "ASAM.C.CUBOID.COM_AXIS.FIX_AXIS.STD_AXIS"),
      ).toMatchObject({
        element: "CHARACTERISTIC",
        line: 3591,
      });
      // "ASAM.C.ARRAY.SWORD.MATRIX_DIM_3_4.ROW_DIR … VAL_BLK 0x810100 RL.FNC.SWORD.ROW_DIR … MATRIX_DIM 3 4 1", MSB_LAST:
      // twelve little-endian signed words from file offset 0x100 of the stock file, row after row.
      const rowDir = answer.samples.find((m: { id: string }) => m.id === "ASAM.C.ARRAY.SWORD.MATRIX_DIM_3_4.ROW_DIR");
      const word = (at: number) => new DataView(demo.stock.buffer, demo.stock.byteOffset).getInt16(at, true);
      expect(rowDir).toMatchObject({ id: "ASAM.C.ARRAY.SWORD.MATRIX_DIM_3_4.ROW_DIR", rows: 4, cols: 3 });
      expect(rowDir.values).toEqual(Array.from({ length: 12 }, (_, i) => word(0x100 + 2 * i)));
      expect(await rows(tuneFilePatches)).toBe(before);

      const negative = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml: fixture("engine-ecu.a2l"),
        addressOffset: -1,
      });
      expect(negative.statusCode).toBe(400);
      expect(negative.body).toContain("addressOffset must not be negative");
    });

    it("stores only the patches and checksum schemes the admin chose, refusing a choice the file does not have", async () => {
      const [a, b] = [demo.patches[3].entries[0], demo.patches[3].entries[1]];
      const entry = (e: typeof a) =>
        `<XDFPATCHENTRY name="e" address="0x${e.address.toString(16)}" datasize="${e.patch.length / 2}" patchdata="${e.patch}" basedata="${e.base}" />`;
      const xml =
        `<XDFFORMAT><XDFHEADER><REGION size="0x10000" /></XDFHEADER>` +
        `<XDFPATCH><title>First</title>${entry(a)}</XDFPATCH><XDFPATCH><title>Second</title>${entry(b)}</XDFPATCH>` +
        `<XDFCHECKSUM><title>Sum A</title><REGION><datastart>0x0</datastart><dataend>0xFF</dataend><storeaddress>0x100</storeaddress></REGION></XDFCHECKSUM>` +
        `<XDFCHECKSUM><title>Sum B</title><REGION><datastart>0x200</datastart><dataend>0x2FF</dataend><storeaddress>0x300</storeaddress></REGION></XDFCHECKSUM></XDFFORMAT>`;
      const before = await rows(tuneFilePatches);
      const [{ checksums: checksumsBefore, definition: definitionBefore }] = await app.ctx.db
        .select({ checksums: firmwareSupport.checksums, definition: firmwareSupport.definition })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, "OTHER64K"));

      const wrong = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml,
        dryRun: false,
        saveDefinition: true,
        patchIndexes: [1, 2],
        checksumNames: ["Sum C"],
      });
      expect(wrong.statusCode, wrong.body).toBe(400);
      expect(wrong.json().data).toEqual([{ path: "patchIndexes.1", message: "the file has no patch 2" }]);
      const wrongSum = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml,
        dryRun: false,
        saveDefinition: true,
        checksumNames: ["Sum C"],
      });
      expect(wrongSum.statusCode, wrongSum.body).toBe(400);
      expect(wrongSum.json().data).toEqual([
        { path: "checksumNames.0", message: 'the file has no checksum scheme "Sum C"' },
      ]);
      const negative = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml,
        dryRun: false,
        patchIndexes: [-1],
      });
      expect(negative.statusCode).toBe(400);
      expect(await rows(tuneFilePatches)).toBe(before);
      const [unchanged] = await app.ctx.db
        .select({ checksums: firmwareSupport.checksums, definition: firmwareSupport.definition })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, "OTHER64K"));
      expect(unchanged).toEqual({ checksums: checksumsBefore, definition: definitionBefore });

      const chosen = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "TUNE64K",
        xml,
        dryRun: false,
        patchIndexes: [1],
      });
      expect(chosen.statusCode, chosen.body).toBe(201);
      expect(chosen.json().patches.map((p: { title: string }) => p.title)).toEqual(["Second"]);
      expect(await rows(tuneFilePatches)).toBe(before + 1);
      await call("DELETE", `/tune-file-patches/${chosen.json().patches[0].id}`, admin);

      const schemes = await call("POST", "/tune-file-patches/import-xdf", admin, {
        firmwareId: "OTHER64K",
        xml,
        dryRun: false,
        saveDefinition: true,
        patchIndexes: [],
        checksumNames: ["Sum B"],
      });
      expect(schemes.statusCode, schemes.body).toBe(201);
      expect(schemes.json()).toMatchObject({
        patches: [],
        saved: { definition: true, checksums: ["Sum B"], refusedChecksums: [] },
      });
      expect(await rows(tuneFilePatches)).toBe(before);
      const restored = await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(other));
      expect(restored.statusCode, restored.body).toBe(200);
    });
  });

  describe("tune files", () => {
    it("creates a tune from an upload, identifying the firmware itself", async () => {
      const response = await upload("/tune-files", dealer, demo.tune.image, {
        title: "Stage 1",
        description: "More boost",
        version: "1.0",
      });
      expect(response.statusCode, response.body).toBe(201);
      tuneId = response.json().id;
      expect(response.json()).toMatchObject({
        firmwareId: "TUNE64K",
        currentVersion: 1,
        published: false,
        access: { owner: true },
      });
      expect(response.json().versions).toEqual([
        expect.objectContaining({ number: 1, label: "1.0", sha256: sha256(demo.tune.image) }),
      ]);
    });

    it("refuses bad uploads with the reason and leaves no row, blob or temp file", async () => {
      const tunes = await rows(tuneFiles);
      const before = await blobs();
      const noTitle = await upload("/tune-files", dealer, demo.tune.image, { description: "x" });
      expect(noTitle.statusCode).toBe(400);
      expect(noTitle.json().data[0].path).toBe("title");
      const extra = await upload("/tune-files", dealer, demo.tune.image, { title: "T", firmwareId: "OTHER64K" });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().data).toContainEqual({ path: "firmwareId", message: 'Unknown field "firmwareId"' });
      const truncated = await upload("/tune-files", dealer, demo.tune.image.subarray(0, 1000), { title: "T" });
      expect(truncated.statusCode).toBe(422);
      expect(truncated.json().description).toContain("1000 bytes");
      const { broken, scheme } = brokenChecksum(demo.tune.image);
      const failing = await upload("/tune-files", dealer, broken, { title: "T" });
      expect(failing.statusCode).toBe(422);
      expect(failing.json().description).toContain(`"${scheme}"`);
      expect((await upload("/tune-files", customer, demo.tune.image, { title: "T" })).statusCode).toBe(403);
      expect(await rows(tuneFiles)).toBe(tunes);
      expect(await blobs()).toEqual(before);
      expect(await temps()).toEqual([]);
    });

    it("fixes failing checksums only when asked", async () => {
      const { broken } = brokenChecksum(demo.tune.image);
      const response = await upload("/tune-files", dealer, broken, { title: "Fixed on upload", fixChecksums: "true" });
      expect(response.statusCode, response.body).toBe(201);
      const version = response.json().versions[0];
      expect(version.sha256).not.toBe(sha256(broken));
      expect(version.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
      expect((await call("DELETE", `/tune-files/${response.json().id}`, dealer)).statusCode).toBe(204);
    });

    it("keeps old versions when a new image is uploaded, and refuses one for another firmware", async () => {
      const v2 = await upload(`/tune-files/${tuneId}/blob`, dealer, demo.stock, { version: "0.9 stock" });
      expect(v2.statusCode, v2.body).toBe(200);
      expect(v2.json().currentVersion).toBe(2);
      expect(v2.json().versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
      const wrong = await upload(`/tune-files/${tuneId}/blob`, dealer, other.stock, { version: "x" });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().description).toContain("OTHER64K");
      expect((await upload(`/tune-files/${tuneId}/blob`, otherDealer, demo.stock, { version: "x" })).statusCode).toBe(
        404,
      );
      expect(await rows(tuneFileVersions)).toBe(2);
      const back = await call("PATCH", `/tune-files/${tuneId}`, dealer, { currentVersion: 1, title: "Stage 1+" });
      expect(back.json()).toMatchObject({ currentVersion: 1, title: "Stage 1+" });
      expect((await call("PATCH", `/tune-files/${tuneId}`, dealer, { currentVersion: 9 })).statusCode).toBe(400);
      expect((await call("PATCH", `/tune-files/${tuneId}`, dealer, { dealerUid: customer.uid })).statusCode).toBe(400);
    });

    it("is hidden from customers until published, then listed with its price", async () => {
      expect((await call("GET", `/tune-files/${tuneId}`, customer)).statusCode).toBe(404);
      expect((await call("GET", "/tune-files", customer)).json().total).toBe(0);
      const bad = await call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: -1, currency: "XYZ" });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .data.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(["currency", "priceCents"]);
      // A priced tune waits for the dealer's payout account.
      const unpaid = await call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: 19900, currency: "EUR" });
      expect(unpaid.statusCode).toBe(409);
      expect(unpaid.json().data).toEqual([expect.objectContaining({ path: "priceCents" })]);
      expect((await call("GET", "/tune-files", customer)).json().total).toBe(0);
      await readyPayouts(app, dealer.uid);
      const published = await call("PUT", `/tune-files/${tuneId}/publish`, dealer, {
        priceCents: 19900,
        currency: "EUR",
        mayView: false,
        mayDownload: false,
      });
      expect(published.statusCode, published.body).toBe(200);
      const list = (await call("GET", "/tune-files?published[eq]=true", customer)).json();
      expect(list.data).toEqual([
        expect.objectContaining({
          id: tuneId,
          priceCents: 19900,
          currency: "EUR",
          access: { owner: false, bought: false, view: false, download: false },
        }),
      ]);
      expect(list.data[0]).not.toHaveProperty("versions");
      expect(
        (await call("PUT", `/tune-files/${tuneId}/publish`, customer, { priceCents: 1, currency: "EUR" })).statusCode,
      ).toBe(403);
      const restricted = await call("PUT", `/tune-files/${tuneId}/publish`, dealer, {
        priceCents: 19900,
        currency: "EUR",
        buyerEmails: [customer.email.toUpperCase()],
      });
      expect(restricted.json().buyerEmails).toEqual([customer.email]);
      expect((await call("GET", `/tune-files/${tuneId}`, stranger)).statusCode).toBe(404);
      expect((await call("GET", `/tune-files/${tuneId}`, customer)).json().buyerEmails).toEqual([]);
    });

    it("enforces protection for a buyer: no changes without view, no bytes without download", async () => {
      expect((await call("GET", `/tune-files/${tuneId}/download`, customer)).statusCode).toBe(403);
      expect((await call("POST", `/tune-files/${tuneId}/grant`, customer, { vehicleId })).statusCode).toBe(403);
      expect((await call("POST", `/tune-files/${tuneId}/grant`, otherDealer, { vehicleId })).statusCode).toBe(403);
      // The customer buys it (an admin's grant stands in for a purchase); the dealer then reaches the car.
      const grant = await call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId });
      expect(grant.statusCode, grant.body).toBe(201);
      expect((await call("POST", `/tune-files/${tuneId}/grant`, dealer, { vehicleId })).statusCode).toBe(200);

      const bought = (await call("GET", `/tune-files/${tuneId}`, customer)).json();
      expect(bought.access).toEqual({ owner: false, bought: true, view: false, download: false });
      const inspection = (await call("GET", `/tune-files/${tuneId}/inspection`, customer)).json();
      expect(inspection.changes).toBeNull();
      expect(inspection.checksums.length).toBeGreaterThan(0);
      expect((await call("GET", `/tune-files/${tuneId}/inspection?version=2`, customer)).statusCode).toBe(403);
      expect((await call("GET", `/tune-files/${tuneId}/download`, customer)).statusCode).toBe(403);
      const preview = await call("POST", "/tune-files/inspect/patch", customer, {
        tuneFileId: tuneId,
        patchIds: [patchIds[0]],
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().changes).toBeNull();
      expect(preview.json().patches.find((p: { id: string }) => p.id === patchIds[0]).state).toBe("applied");
      expect((await call("GET", `/tune-files/${tuneId}/maps`, customer)).statusCode).toBe(403);

      await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: true, mayDownload: false });
      const maps = await call("GET", `/tune-files/${tuneId}/maps`, customer);
      expect(maps.statusCode, maps.body).toBe(200);
      const item = demo.firmware.definition.items[0];
      expect(maps.json()).toMatchObject({
        firmwareId: "TUNE64K",
        version: 1,
        definition: { items: expect.any(Array) },
        base: { kind: "stock" },
      });
      const values = await call("GET", `/tune-files/${tuneId}/maps/${item.id}`, customer);
      expect(values.json()).toEqual({ values: readItem(demo.tune.image, item), base: readItem(demo.stock, item) });
      expect((await call("GET", `/tune-files/${tuneId}/maps`, stranger)).statusCode).toBe(404);
      expect((await call("GET", `/tune-files/${tuneId}/download`, customer)).statusCode).toBe(403);

      await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: true, mayDownload: true });
      expect((await call("GET", `/tune-files/${tuneId}/inspection`, customer)).json().changes.length).toBeGreaterThan(
        0,
      );
      const download = await call("GET", `/tune-files/${tuneId}/download`, customer);
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(demo.tune.image));
      // A bought tune cannot be deleted from under its buyer.
      const del = await call("DELETE", `/tune-files/${tuneId}`, dealer);
      expect(del.statusCode).toBe(409);
      expect(await rows(tuneFiles)).toBe(1);
    });
  });

  describe("baking", () => {
    it("takes the vehicle's stock read, refusing truncated or failing reads and changing nothing", async () => {
      const truncated = await upload(
        `/user-vehicles/${vehicleId}/upload-tune-dump/0`,
        customer,
        demo.stock.subarray(0, 4096),
      );
      expect(truncated.statusCode).toBe(422);
      const failing = await upload(
        `/user-vehicles/${vehicleId}/upload-tune-dump/0`,
        customer,
        brokenChecksum(demo.stock).broken,
      );
      expect(failing.statusCode).toBe(422);
      expect(
        (await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId)))[0].stockDumpSha256,
      ).toBeNull();
      expect(
        (await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: tuneId })).statusCode,
      ).toBe(409);
      expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, stranger, demo.stock)).statusCode).toBe(
        404,
      );

      const ok = await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/1`, customer, demo.stock);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ firmwareId: "TUNE64K", stockDump: { sha256: sha256(demo.stock), slot: 1 } });
      const back = await call("GET", `/user-vehicles/${vehicleId}/download-tune-dump`, customer);
      expect(sha256(back.rawPayload)).toBe(sha256(demo.stock));
    });

    it("bakes a bought tune with patches for the vehicle, expiring, within protection", async () => {
      await call("PATCH", `/tune-files/${tuneId}`, dealer, { mayView: false, mayDownload: false });
      const response = await call("POST", `/user-vehicles/${vehicleId}/temp-bake/1`, customer, {
        tuneFileId: tuneId,
        patchIds: [patchIds[3]],
      });
      expect(response.statusCode, response.body).toBe(201);
      const baked = response.json();
      expect(baked).toMatchObject({
        vehicleId,
        firmwareId: "TUNE64K",
        tuneFileId: tuneId,
        tuneVersion: 1,
        slot: 1,
        download: false,
      });
      expect(new Date(baked.expiresAt).getTime()).toBeGreaterThan(Date.now());
      expect(baked.report).not.toHaveProperty("carried");
      expect(baked.report.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
      expect((await call("GET", `/baked-tune-files/${baked.id}/download`, customer)).statusCode).toBe(403);
      expect((await call("GET", `/baked-tune-files/${baked.id}`, stranger)).statusCode).toBe(404);

      const asDealer = (await call("GET", `/baked-tune-files/${baked.id}`, dealer)).json();
      expect(asDealer.report.carriedBytes).toBeGreaterThan(0);
      const bytes = await call("GET", `/baked-tune-files/${baked.id}/download`, dealer);
      expect(sha256(bytes.rawPayload)).toBe(baked.sha256);
      expect(patchState(new Uint8Array(bytes.rawPayload), demo.patches[3]).state).toBe("applied");

      await app.ctx.db
        .update(bakedTuneFiles)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(bakedTuneFiles.id, baked.id));
      expect((await call("GET", `/baked-tune-files/${baked.id}`, customer)).statusCode).toBe(404);
    });

    it("refuses bakes the caller may not make, and patches that do not fit, storing nothing", async () => {
      const before = await rows(bakedTuneFiles);
      const [own] = await app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: stranger.uid, name: "Other car" })
        .returning();
      expect(
        (await call("POST", `/user-vehicles/${own.id}/temp-bake/0`, stranger, { tuneFileId: tuneId })).statusCode,
      ).toBe(409);
      expect(
        (await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, stranger, { tuneFileId: tuneId })).statusCode,
      ).toBe(404);
      expect(
        (await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, otherDealer, { tuneFileId: tuneId })).statusCode,
      ).toBe(404);
      const foreign = (await call("GET", "/tune-file-patches?firmwareIds[eq]=OTHER64K", admin)).json().data[0].id;
      const wrongPatch = await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, {
        tuneFileId: tuneId,
        patchIds: [foreign],
      });
      expect(wrongPatch.statusCode).toBe(422);
      expect(
        (await call("POST", `/user-vehicles/${vehicleId}/temp-bake/99`, customer, { tuneFileId: tuneId })).statusCode,
      ).toBe(400);
      expect((await upload(`/user-vehicles/${vehicleId}/direct-bake`, customer, demo.tune.image)).statusCode).toBe(403);
      expect(await rows(bakedTuneFiles)).toBe(before);
    });

    it("direct-bakes a supplied image for a managed vehicle (dealer) and rebakes everything in the background", async () => {
      const direct = await upload(`/user-vehicles/${vehicleId}/direct-bake`, dealer, demo.tune.image, {
        patchIds: patchIds[1],
      });
      expect(direct.statusCode, direct.body).toBe(201);
      expect(direct.json()).toMatchObject({ tuneFileId: null, expiresAt: null, download: true });
      expect((await upload(`/user-vehicles/${vehicleId}/direct-bake`, otherDealer, demo.tune.image)).statusCode).toBe(
        404,
      );

      // A second car whose read then goes missing: its rebake fails and the first still happens.
      const [second] = await app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: customer.uid, name: "Second car" })
        .returning();
      await upload(`/user-vehicles/${second.id}/upload-tune-dump/0`, customer, demo.stock);
      await call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId: second.id });
      const doomed = await upload(`/user-vehicles/${second.id}/direct-bake`, dealer, demo.tune.image);
      expect(doomed.statusCode).toBe(201);
      await app.ctx.db.update(userVehicles).set({ stockDumpSha256: null }).where(eq(userVehicles.id, second.id));
      await app.ctx.db
        .update(bakedTuneFiles)
        .set({ sha256: "0".repeat(64) })
        .where(eq(bakedTuneFiles.id, direct.json().id));

      expect((await call("POST", "/baked-tune-files/rebake-all", dealer)).statusCode).toBe(403);
      const started = await call("POST", "/baked-tune-files/rebake-all", admin);
      expect(started.statusCode).toBe(202);
      const jobId = started.json().job.id;
      await app.ctx.jobs.idle();
      const job = (await call("GET", "/status/background", admin))
        .json()
        .jobs.find((j: { id: string }) => j.id === jobId);
      // The job itself succeeded (no retry would help); the bake it could not redo is listed with why.
      expect(job).toMatchObject({
        state: "succeeded",
        total: 2,
        done: 2,
        failures: [{ item: doomed.json().id, message: expect.stringContaining("no stock read") }],
        result: { rebaked: 1, failed: 1 },
      });
      expect((await call("GET", `/baked-tune-files/${direct.json().id}`, customer)).json().sha256).toBe(
        direct.json().sha256,
      );

      expect((await call("DELETE", `/baked-tune-files/${doomed.json().id}`, stranger)).statusCode).toBe(404);
      expect((await call("DELETE", `/baked-tune-files/${doomed.json().id}`, customer)).statusCode).toBe(204);
    });

    it("lists a vehicle's bought and baked tunes, and keeps patches that kept bakes use", async () => {
      const response = await call("GET", `/user-vehicles/${vehicleId}/tune-files`, customer);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().bought.map((t: { id: string }) => t.id)).toEqual([tuneId]);
      expect(response.json().baked).toHaveLength(1);
      expect(
        (await call("GET", "/user-vehicles", customer)).json().data.map((v: { name: string }) => v.name),
      ).toContain("Test hatch");
      expect((await call("DELETE", `/tune-file-patches/${patchIds[1]}`, admin)).statusCode).toBe(409);
      expect(await rows(tuneFilePurchases)).toBe(2);
    });

    it("refuses to delete the firmware record its tune files and patches are identified by", async () => {
      await app.ctx.db.update(userVehicles).set({ firmwareId: "TUNE64K" }).where(eq(userVehicles.id, vehicleId));
      const response = await call("DELETE", `/firmware-support/firmware-support/${firmwareRecordId}`, admin);
      expect(response.statusCode).toBe(409);
      const referrers = response.json().data.map((r: { resource: string; id: string }) => `${r.resource} ${r.id}`);
      expect(referrers).toContain(`tune file ${tuneId}`);
      expect(referrers).toContain(`tune-file patch ${patchIds[0]}`);
      expect(referrers).toContain(`vehicle ${vehicleId}`);
      expect((await call("GET", `/firmware-support/firmware-support/${firmwareRecordId}`, admin)).statusCode).toBe(200);
    });
  });
});
