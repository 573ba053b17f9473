import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  computedDescriptors,
  firmwareSecrets,
  firmwareSupport,
  obdFunctions,
  pidDescriptors,
  secretReveals,
  supportedVehicles,
  supportRequests,
} from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { sealStoredPasswords } from "../../server/services/secret-box";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { multipart } from "./support/multipart";
import { firmwareRecordOf, requestsTo } from "./support/requests";

const UPLOAD_LIMIT = 128 * 1024;
const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 4, firmwareId: "DEMO64K" });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const firmwareBody = (overrides: Record<string, unknown> = {}) => firmwareRecordOf(demo, overrides);

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

describe.each(apiDatabases)("firmware support API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let firmwareRecordId: string;

  const rows = async (table: PgTable) => (await app.ctx.db.select({ n: count() }).from(table))[0].n;

  beforeAll(async () => {
    test = await startTestApp(kind, { UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) });
    app = test.app;
    [admin, dealer, customer] = await createUsers(test, ["admin", "dealer", "customer"]);
  });
  afterAll(async () => test?.close());

  describe("firmware records", () => {
    it("creates with PUT (201), reads it back and updates by firmware id (200)", async () => {
      const created = await call("PUT", "/firmware-support/firmware-support", admin, firmwareBody());
      expect(created.statusCode, created.body).toBe(201);
      firmwareRecordId = created.json().id;
      expect(created.json()).toMatchObject({
        firmwareId: "DEMO64K",
        stockFile: null,
        flashing: { enabled: false, bootloader: null },
      });

      const updated = await call(
        "PUT",
        "/firmware-support/firmware-support",
        admin,
        firmwareBody({ notes: "second look" }),
      );
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ id: firmwareRecordId, notes: "second look" });

      const read = await call("GET", `/firmware-support/firmware-support/${firmwareRecordId}`, admin);
      expect(read.json().checksums).toHaveLength(demo.firmware.checksums.length);
      expect(read.json().definition.items).toHaveLength(demo.firmware.definition.items.length);

      const list = await call("GET", "/firmware-support?firmwareId[eq]=DEMO64K", admin);
      expect(list.json()).toMatchObject({
        total: 1,
        totalEstimated: false,
        data: [{ firmwareId: "DEMO64K", hasDefinition: true }],
      });
      expect(list.json().data[0]).not.toHaveProperty("definition");
    });

    it("refuses unknown fields and bad values with the field named, and stores nothing", async () => {
      const before = await rows(firmwareSupport);
      const unknown = await call("PUT", "/firmware-support/firmware-support", admin, {
        ...firmwareBody({ firmwareId: "OTHER1" }),
        stockSha256: "ab",
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().data).toContainEqual({ path: "stockSha256", message: 'Unknown field "stockSha256"' });

      const bad = await call(
        "PUT",
        "/firmware-support/firmware-support",
        admin,
        firmwareBody({ firmwareId: "OTHER1", imageSize: 1024 }),
      );
      expect(bad.statusCode).toBe(400);
      const paths = bad.json().data.map((issue: { path: string }) => issue.path);
      expect(paths).toContain("definition.imageSize");
      expect(await rows(firmwareSupport)).toBe(before);
    });

    it("refuses a definition whose scaling does not compile, naming the item's field, and stores nothing", async () => {
      const before = await rows(firmwareSupport);
      const [first, ...rest] = demo.firmware.definition.items;
      const definition = {
        ...demo.firmware.definition,
        items: [{ ...first, z: { ...first.z, toPhysical: "X*(2" } }, ...rest],
      };
      const bad = await call(
        "PUT",
        "/firmware-support/firmware-support",
        admin,
        firmwareBody({ firmwareId: "OTHER2", definition: { ...definition, firmwareId: "OTHER2" } }),
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data).toEqual([
        {
          path: "definition.items.0.z.toPhysical",
          message: `expression "X*(2": Expected ')' but the expression ended at 4`,
        },
      ]);
      expect(await rows(firmwareSupport)).toBe(before);
    });

    it.each([["dealer"], ["customer"]] as const)("refuses the %s role (403) and changes nothing", async (role) => {
      const user = role === "dealer" ? dealer : customer;
      expect((await call("GET", "/firmware-support", user)).statusCode).toBe(403);
      const put = await call("PUT", "/firmware-support/firmware-support", user, firmwareBody({ firmwareId: "SNEAKY" }));
      expect(put.statusCode).toBe(403);
      expect((await call("DELETE", `/firmware-support/firmware-support/${firmwareRecordId}`, user)).statusCode).toBe(
        403,
      );
      expect((await call("GET", "/firmware-support/password-storage", user)).statusCode).toBe(403);
      expect((await call("GET", "/firmware-support/computed-descriptors", user)).statusCode).toBe(403);
      expect((await call("GET", "/user-vehicles/support-request", user)).statusCode).toBe(403);
      expect(await rows(firmwareSupport)).toBe(1);
    });
  });

  describe("stock file upload", () => {
    const upload = (
      id: string,
      content: Uint8Array,
      extra: Array<{ name: string; filename: string; content: Uint8Array }> = [],
    ) => {
      const body = multipart([{ name: "file", filename: "stock.bin", content }, ...extra]);
      return app.inject({
        method: "POST",
        url: `/api/v1/firmware-support/firmware-support/${id}/stock-file`,
        headers: { ...bearer(admin.token), ...body.headers },
        payload: body.payload,
      });
    };

    it("refuses a file of the wrong size with 422 and keeps nothing", async () => {
      const response = await upload(firmwareRecordId, demo.stock.subarray(0, demo.stock.length - 16));
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe("Wrong image size");
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "blobs"))).toEqual([]);
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "tmp"))).toEqual([]);
    });

    it("refuses an image whose identify rules do not match", async () => {
      const other = Uint8Array.from(demo.stock);
      other[0x100] ^= 0xff;
      const response = await upload(firmwareRecordId, other);
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe("Not this firmware");
    });

    it("refuses an image where a checksum does not verify, naming the scheme", async () => {
      const broken = Uint8Array.from(demo.stock);
      const scheme = demo.firmware.checksums[0];
      broken[scheme.ranges[0][0]] ^= 0x01;
      const response = await upload(firmwareRecordId, broken);
      expect(response.statusCode).toBe(422);
      expect(response.json().description).toContain(`"${scheme.name}"`);
      expect(response.json().data.map((d: { scheme: string }) => d.scheme)).toContain(scheme.name);
      expect(
        (await call("GET", `/firmware-support/firmware-support/${firmwareRecordId}`, admin)).json().stockFile,
      ).toBeNull();
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "blobs"))).toEqual([]);
    });

    it("refuses two files in one upload with 400", async () => {
      const response = await upload(firmwareRecordId, demo.stock, [
        { name: "second", filename: "b.bin", content: demo.stock },
      ]);
      expect(response.statusCode).toBe(400);
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "tmp"))).toEqual([]);
    });

    it("stores the stock file, answers its SHA-256 and serves it back", async () => {
      const response = await upload(firmwareRecordId, demo.stock);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().stockFile).toMatchObject({ sha256: sha256(demo.stock), size: demo.stock.length });
      const download = await call("GET", `/firmware-support/stock-file/${firmwareRecordId}`, admin);
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(demo.stock));
      expect((await call("GET", `/firmware-support/stock-file/${firmwareRecordId}`, dealer)).statusCode).toBe(403);
    });

    it("a new record's first setup proposes the ids printed in its stock read and the known schemes that verify on it", async () => {
      const fresh = generateDemo({
        size: 64 * 1024,
        itemCount: 2,
        patchEntries: 1,
        firmwareId: "8E0909518AK",
        seed: 7,
      });
      const created = await call(
        "PUT",
        "/firmware-support/firmware-support",
        admin,
        firmwareRecordOf(fresh, { identify: [], checksums: [], definition: null }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as string;
      expect((await call("GET", `/firmware-support/firmware-support/${id}/first-setup`, admin)).statusCode).toBe(404);
      expect((await upload(id, fresh.stock)).statusCode).toBe(200);
      const setup = await call("GET", `/firmware-support/firmware-support/${id}/first-setup`, admin);
      expect(setup.statusCode, setup.body).toBe(200);
      expect(setup.json().candidates).toContainEqual({ offset: 0x100, text: "8E0909518AK", kind: "part-number" });
      // DEMO64K's schemes cover the same layout of a 64 KiB demo image: each verifies on this read too.
      const schemes = setup.json().schemes as Array<{ scheme: { name: string }; from: string[]; verifies: boolean }>;
      expect(schemes.length).toBeGreaterThan(0);
      for (const trial of schemes) expect(trial).toMatchObject({ from: ["DEMO64K"], verifies: true });
      expect((await call("GET", `/firmware-support/firmware-support/${id}/first-setup`, dealer)).statusCode).toBe(403);
      expect((await call("DELETE", `/firmware-support/firmware-support/${id}`, admin)).statusCode).toBe(204);
    });

    it("refuses new checksum rules that the stored stock file fails", async () => {
      const wrong = demo.firmware.checksums.map((scheme, i) =>
        i === 0 ? { ...scheme, store: { ...scheme.store, address: scheme.store.address + 8 } } : scheme,
      );
      const response = await call(
        "PUT",
        "/firmware-support/firmware-support",
        admin,
        firmwareBody({ checksums: wrong }),
      );
      expect(response.statusCode).toBe(422);
    });
  });

  describe("bootloader upload limit", () => {
    const bootloader = (size: number) => {
      const body = multipart([{ name: "file", filename: "boot.bin", content: new Uint8Array(size).fill(0x5a) }]);
      return app.inject({
        method: "POST",
        url: `/api/v1/firmware-support/flashing-support/${firmwareRecordId}/bootloader`,
        headers: { ...bearer(admin.token), ...body.headers },
        payload: body.payload,
      });
    };

    it("accepts a file of exactly the limit", async () => {
      const response = await bootloader(UPLOAD_LIMIT);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().flashing.bootloader).toMatchObject({ size: UPLOAD_LIMIT, name: "boot.bin" });
    });

    it("refuses the limit plus one byte with 413, leaving no file and no change", async () => {
      const before = (await call("GET", `/firmware-support/firmware-support/${firmwareRecordId}`, admin)).json();
      const blobsBefore = await filesUnder(path.join(app.ctx.config.dataDir, "blobs"));
      const response = await bootloader(UPLOAD_LIMIT + 1);
      expect(response.statusCode).toBe(413);
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "tmp"))).toEqual([]);
      expect(await filesUnder(path.join(app.ctx.config.dataDir, "blobs"))).toEqual(blobsBefore);
      expect((await call("GET", `/firmware-support/firmware-support/${firmwareRecordId}`, admin)).json()).toEqual(
        before,
      );
    });

    it("holds an image to patch in memory under the same limit and refusals as a stored upload", async () => {
      const apply = (files: Array<{ name: string; filename: string; content: Uint8Array }>) => {
        const body = multipart(files, { patchIds: "00000000-0000-4000-8000-000000000000" });
        return app.inject({
          method: "POST",
          url: "/api/v1/tune-file-patches/apply",
          headers: { ...bearer(dealer.token), ...body.headers },
          payload: body.payload,
        });
      };
      const image = (size: number) => ({
        name: "file",
        filename: "image.bin",
        content: new Uint8Array(size).fill(0x5a),
      });
      const tooLarge = await apply([image(UPLOAD_LIMIT + 1)]);
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json().data).toEqual({ limitBytes: UPLOAD_LIMIT });
      const two = await apply([image(16), { ...image(16), filename: "second.bin" }]);
      expect(two.statusCode).toBe(400);
      expect(two.json().description).toBe("Send exactly one file per upload");
      const none = await apply([]);
      expect(none.statusCode).toBe(400);
      expect(none.json().description).toContain('"file"');
      // The limit exactly is received: what refuses it is that no firmware has images of its size.
      const exact = await apply([image(UPLOAD_LIMIT)]);
      expect(exact.statusCode, exact.body).toBe(422);
      expect(exact.json().message).toBe("Unknown firmware");
      const body = multipart([image(64)], { patchIds: "00000000-0000-4000-8000-000000000000" });
      const cut = await app.inject({
        method: "POST",
        url: "/api/v1/tune-file-patches/apply",
        headers: { ...bearer(dealer.token), ...body.headers },
        payload: body.payload.subarray(0, body.payload.length - 30),
      });
      expect(cut.statusCode).toBe(400);
      expect(cut.json()).toMatchObject({
        message: "Invalid multipart body",
        description: "the body ends before its closing boundary",
      });
    });

    it("enables flashing with a profile and blocks once stock file and bootloader are there", async () => {
      const response = await call("PUT", "/firmware-support/flashing-support", admin, {
        firmwareId: "DEMO64K",
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
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().flashing).toMatchObject({ enabled: true, profile: { requestCanId: 0x7e0 } });
    });
  });

  describe("supported vehicles, OBD functions, descriptors and templates", () => {
    let vehicleId: string;
    let rpmId: string;

    it("creates a supported vehicle naming a known firmware, refuses an unknown one", async () => {
      const vehicle = {
        make: "Volkswagen",
        model: "Golf",
        generation: "Mk7",
        engine: "EA888 2.0 TSI",
        yearFrom: 2013,
        yearTo: 2020,
        ecu: "Simos 18.1",
        firmwareIds: ["DEMO64K"],
      };
      const created = await call("PUT", "/firmware-support/supported-vehicle", admin, vehicle);
      expect(created.statusCode, created.body).toBe(201);
      vehicleId = created.json().id;
      const unknown = await call("PUT", "/firmware-support/supported-vehicle", admin, {
        ...vehicle,
        firmwareIds: ["NOPE"],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().data).toEqual([{ path: "firmwareIds", message: "no firmware record for NOPE" }]);
      const years = await call("PUT", "/firmware-support/supported-vehicle", admin, { ...vehicle, yearTo: 2000 });
      expect(years.json().data).toContainEqual({ path: "yearTo", message: "the last year is before the first" });
      const updated = await call("PUT", "/firmware-support/supported-vehicle", admin, {
        ...vehicle,
        id: vehicleId,
        yearTo: null,
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json().yearTo).toBeNull();
      expect(await rows(supportedVehicles)).toBe(1);
    });

    it("refuses to delete a firmware record still referenced (409 naming the vehicle), and deletes nothing", async () => {
      const response = await call("DELETE", `/firmware-support/firmware-support/${firmwareRecordId}`, admin);
      expect(response.statusCode).toBe(409);
      expect(response.json().description).toContain('supported vehicle "Volkswagen Golf EA888 2.0 TSI"');
      expect(response.json().data).toContainEqual({
        resource: "supported vehicle",
        id: vehicleId,
        label: "Volkswagen Golf EA888 2.0 TSI",
      });
      expect(await rows(firmwareSupport)).toBe(1);
    });

    it("keeps OBD functions that change the car behind a confirmation text", async () => {
      const fn = {
        name: "Clear DTCs",
        category: "clear-codes",
        request: "14 FF FF FF",
        expectedResponse: "54",
        safetyLevel: "caution",
        firmwareIds: ["DEMO64K"],
      };
      const refused = await call("PUT", "/firmware-support/obd-function", admin, fn);
      expect(refused.json().data).toContainEqual({
        path: "confirmationText",
        message: "a function that changes the car needs a confirmation text",
      });
      const created = await call("PUT", "/firmware-support/obd-function", admin, {
        ...fn,
        confirmationText: "Clear all fault codes?",
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().request).toBe("14FFFFFF");
      const duplicate = await call("PUT", "/firmware-support/obd-function", admin, {
        ...fn,
        confirmationText: "again",
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().data).toEqual([{ path: "name", message: "another OBD function has this name" }]);
      const list = await call(
        "GET",
        "/firmware-support/obd-function?category[eq]=clear-codes&firmwareIds[eq]=DEMO64K",
        admin,
      );
      expect(list.json().total).toBe(1);
      expect((await call("DELETE", `/firmware-support/obd-function/${created.json().id}`, admin)).statusCode).toBe(204);
      expect(await rows(obdFunctions)).toBe(0);
    });

    it("creates PID descriptors, a template over them, and refuses deleting a descriptor in use", async () => {
      const pid = (name: string, variable: string, address: string, expression: string) =>
        call("PUT", "/firmware-support/pid-descriptors", admin, {
          name,
          variable,
          unit: "",
          source: "uds",
          address,
          length: 2,
          expression,
        });
      const rpm = await pid("Engine Speed", "rpm", "0xf40c", "x / 4");
      expect(rpm.statusCode, rpm.body).toBe(201);
      expect(rpm.json().address).toBe("0xF40C");
      rpmId = rpm.json().id;
      const map = await pid("Manifold Press", "map", "0x39c0", "x / 10");
      const amb = await pid("Ambient Press", "amb_press", "0x13ca", "x / 120.6");
      const bad = await pid("Broken", "broken", "0x1", "x *");
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data[0].path).toBe("expression");

      const template = await call("PUT", "/firmware-support/pid-templates", admin, {
        name: "Boost",
        descriptorIds: [map.json().id, amb.json().id, rpmId],
        sampleRateHz: 20,
        firmwareIds: ["DEMO64K"],
      });
      expect(template.statusCode, template.body).toBe(201);
      expect(template.json().descriptorIds).toEqual([map.json().id, amb.json().id, rpmId]);

      const refused = await call("DELETE", `/firmware-support/pid-descriptors/${rpmId}`, admin);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().description).toContain('PID template "Boost"');
      expect(await rows(pidDescriptors)).toBe(3);
    });

    it("refuses a PID descriptor whose expression does not compile, with the column, and stores nothing", async () => {
      const before = await rows(pidDescriptors);
      const bad = await call("PUT", "/firmware-support/pid-descriptors", admin, {
        name: "Coolant",
        variable: "coolant",
        source: "uds",
        address: "0xf405",
        length: 1,
        expression: "x - 40 +",
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data).toEqual([{ path: "expression", message: "Unexpected end of expression at 8 (at 9)" }]);
      expect(await rows(pidDescriptors)).toBe(before);
    });

    it("checks computed expressions: a typo comes back with its position, unknown channels by name", async () => {
      const typo = await call("PUT", "/firmware-support/computed-descriptor", admin, {
        name: "Boost",
        variable: "boost",
        unit: "psi",
        expression: "(map - amb_pres) * 0.145",
      });
      expect(typo.statusCode).toBe(400);
      expect(typo.json().data[0]).toMatchObject({ path: "expression", position: 7, length: 8 });
      expect(typo.json().data[0].message).toContain("amb_pres");

      const syntax = await call("PUT", "/firmware-support/computed-descriptor", admin, {
        name: "Boost",
        variable: "boost",
        expression: "(map - amb_press * 0.145",
      });
      expect(syntax.statusCode).toBe(400);
      expect(syntax.json().data[0].position).toBeGreaterThanOrEqual(0);

      const created = await call("PUT", "/firmware-support/computed-descriptor", admin, {
        name: "Boost",
        variable: "boost",
        unit: "psi",
        expression: "(map - amb_press) * 0.145",
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().variables).toEqual(["map", "amb_press"]);
      const list = await call("GET", "/firmware-support/computed-descriptors?variables[eq]=amb_press", admin);
      expect(list.json().total).toBe(1);
      expect(await rows(computedDescriptors)).toBe(1);
    });

    it("keeps passwords masked in lists and logs every reveal", async () => {
      const created = await call("PUT", "/firmware-support/password-storage", admin, {
        firmwareId: "DEMO64K",
        label: "SA2",
        securityLevel: 0x11,
        secret: "s3cr3t-seed",
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().secret).not.toContain("s3cr3t");
      const list = await call("GET", "/firmware-support/password-storage", admin);
      expect(JSON.stringify(list.json())).not.toContain("s3cr3t");
      const reveal = await call("POST", `/firmware-support/password-storage/${created.json().id}/reveal`, admin);
      expect(reveal.json().secret).toBe("s3cr3t-seed");
      expect(await rows(secretReveals)).toBe(1);
      // Sealed at rest: the database holds neither the secret nor anything that opens without the key.
      const [stored] = await app.ctx.db.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, created.json().id));
      expect(stored.secret).toMatch(/^v1:/);
      expect(stored.secret).not.toContain("s3cr3t");
      expect(app.ctx.secrets.open(stored.secret)).toBe("s3cr3t-seed");
      // A password stored before sealing existed is sealed at the next start and still reveals.
      const [legacy] = await app.ctx.db
        .insert(firmwareSecrets)
        .values({ firmwareId: "DEMO64K", label: "legacy", securityLevel: 3, secret: "old-plain" })
        .returning();
      expect(await sealStoredPasswords(app.ctx.db, app.ctx.secrets)).toBe(1);
      const [resealed] = await app.ctx.db.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, legacy.id));
      expect(resealed.secret).toMatch(/^v1:/);
      expect((await call("POST", `/firmware-support/password-storage/${legacy.id}/reveal`, admin)).json().secret).toBe(
        "old-plain",
      );
      expect(
        (await call("POST", `/firmware-support/password-storage/${created.json().id}/reveal`, dealer)).statusCode,
      ).toBe(403);
      expect(await rows(secretReveals)).toBe(2);
    });

    it("shows what each firmware has in the support matrix", async () => {
      const matrix = await call("GET", "/firmware-support/matrix", admin);
      expect(matrix.statusCode, matrix.body).toBe(200);
      expect(matrix.json().data).toEqual([
        {
          firmwareId: "DEMO64K",
          manufacturer: "Bosch",
          ecuFamily: "DEMO-ME7",
          definition: true,
          stockFile: true,
          bootloader: true,
          flashing: true,
          vehicles: 1,
          pidTemplates: 1,
          obdFunctions: 0,
        },
      ]);
    });
  });

  describe("PID CSV import and export", () => {
    it("previews the VW_Flash sample with computed rows and per-row errors, then imports the valid rows", async () => {
      const { readFile } = await import("node:fs/promises");
      const csv = await readFile(path.resolve("../shared/fixtures/pids/vwflash-parameters_22.csv"), "utf8");
      const stored = await rows(pidDescriptors);
      const preview = await call("POST", "/firmware-support/pid-descriptors/import", admin, { csv, dryRun: true });
      expect(preview.statusCode, preview.body).toBe(200);
      const body = preview.json();
      expect(body.format).toBe("vwflash");
      const boost = body.rows.find((row: { value: { name: string } }) => row.value.name === "Boost");
      expect(boost).toMatchObject({ kind: "computed", errors: [] });
      // "Calc HP" reads VW_Flash's own hp, which no channel provides.
      const hp = body.rows.find((row: { value: { name: string } }) => row.value.name === "Calc HP");
      expect(hp.errors[0]).toMatchObject({ field: "expression" });
      expect(await rows(pidDescriptors)).toBe(stored);

      const refused = await call("POST", "/firmware-support/pid-descriptors/import", admin, { csv, dryRun: false });
      expect(refused.statusCode).toBe(400);
      const imported = await call("POST", "/firmware-support/pid-descriptors/import", admin, {
        csv,
        dryRun: false,
        skipInvalid: true,
      });
      expect(imported.statusCode, imported.body).toBe(201);
      expect(imported.json().imported).toBe(body.valid);

      const exported = await call("GET", "/firmware-support/pid-descriptors/export?format=vwflash&q=Airflow", admin);
      expect(exported.headers["content-type"]).toContain("text/csv");
      expect(exported.body.split("\r\n")[0]).toBe(
        "Name,Unit,Equation,Format,Address,Length,Signed,ProgMin,ProgMax,WarnMin,WarnMax,Smoothing,Enabled,Tabs,Assign To",
      );
      expect(exported.body).toContain("Airflow,kg/hr,x,%01.0f,0x2032,2,FALSE,0,2000,-1000,5000,0,TRUE,,air");
    });
  });

  describe("support requests", () => {
    const request = {
      vin: "WVWZZZAUZKW123456",
      make: "Volkswagen",
      model: "Golf R",
      year: 2019,
      ecuIds: ["8V0906259H"],
    };
    let requestId: string;

    it("lets any signed-in user ask, as JSON or multipart with the read file", async () => {
      const json = await call("POST", "/user-vehicles/support-request", customer, request);
      expect(json.statusCode, json.body).toBe(201);
      expect(json.json()).toMatchObject({ status: "new", requesterUid: customer.uid, readFile: null });
      requestId = json.json().id;

      const read = new Uint8Array(1024).fill(7);
      const form = multipart([{ name: "file", filename: "read.bin", content: read }], {
        ...request,
        year: "2019",
        ecuIds: JSON.stringify(request.ecuIds),
      });
      const withFile = await app.inject({
        method: "POST",
        url: "/api/v1/user-vehicles/support-request",
        headers: { ...bearer(dealer.token), ...form.headers },
        payload: form.payload,
      });
      expect(withFile.statusCode, withFile.body).toBe(201);
      expect(withFile.json().readFile).toEqual({ sha256: sha256(read), size: 1024 });

      const bad = await call("POST", "/user-vehicles/support-request", customer, { ...request, vin: "SHORT" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data[0].path).toBe("vin");
      expect(await rows(supportRequests)).toBe(2);
    });

    it("lets admins work the queue forward only, with notes, linking a firmware when supported", async () => {
      const queue = await call("GET", "/user-vehicles/support-request?status[eq]=new&sort=-createdAt", admin);
      expect(queue.json().total).toBe(2);
      const noFirmware = await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, {
        status: "supported",
      });
      expect(noFirmware.statusCode).toBe(400);
      const working = await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, {
        status: "investigating",
        note: "asked for a full read",
      });
      expect(working.json()).toMatchObject({ status: "investigating", notes: [{ text: "asked for a full read" }] });
      const done = await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, {
        status: "supported",
        firmwareId: "DEMO64K",
      });
      expect(done.json()).toMatchObject({ status: "supported", firmwareId: "DEMO64K" });
      const back = await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, { status: "new" });
      expect(back.statusCode).toBe(409);
      expect(
        (await call("PATCH", `/user-vehicles/support-request/${requestId}`, customer, { status: "rejected" }))
          .statusCode,
      ).toBe(403);
    });
  });
});
