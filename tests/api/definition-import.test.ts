/**
 * Importing definition files as the firmware page sends them: multipart `file` parts with the
 * other fields of the import as form fields, each file up to 8 MiB, decoded on the server by its
 * own encoding. The item counts of the real files are read off them with grep (the elements
 * `<XDFTABLE`, `<XDFCONSTANT`, `<XDFFLAG`, `<XDFFUNCTION`, and `<CATEGORY ` lines), not through
 * our importer: ms45.xdf has 1056 tables and 3065 constants in 302 categories, the MG1 XDF 1198
 * tables and 3 flags in 76 categories. mss54-hw0401.xdf is not UTF-8: its line 14309 is
 * `<units>"°C"</units>` with ° the single byte B0 (Windows-1252), as Python's cp1252 codec
 * reads it.
 */
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TuneDefinition } from "../../contracts/tune-definition";
import { DEFINITION_MAX_BYTES } from "../../contracts/tune-files";
import { firmwareSupport } from "../../server/db/schema";
import { bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { type FilePart, multipart } from "./support/multipart";
import { requestsTo } from "./support/requests";

const FIXTURES = new URL("../../../shared/fixtures/", import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const MS45 = "definitions/ms45.xdf";
const MG1 = "definitions/mg1-b58gen2-00005D55289606.xdf";
const MSS54 = "definitions/mss54-hw0401.xdf";
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
/** Units sit on an item's elements and axes: every `unit` of an answer, wherever it is. */
const unitsOf = (body: string) =>
  [...body.matchAll(/"unit":("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]) as string);
const part = (filename: string, content: Uint8Array): FilePart => ({ name: "file", filename, content });

describe("definition import from files (multipart)", () => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let dealer: TestUser;
  const { call, upload } = requestsTo(() => app);

  const importFiles = (user: TestUser, files: FilePart[], fields: Record<string, string>) => {
    const body = multipart(files, fields);
    return app.inject({
      method: "POST",
      url: "/api/v1/tune-file-patches/import-xdf",
      headers: { ...bearer(user.token), ...body.headers },
      payload: body.payload,
    });
  };
  const storedDefinition = async (firmwareId: string) =>
    (
      await app.ctx.db
        .select({ definition: firmwareSupport.definition })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, firmwareId))
    )[0]?.definition as TuneDefinition | null;
  const createFirmware = async (firmwareId: string, imageSize: number, stock?: Uint8Array) => {
    const record = await call("PUT", "/firmware-support/firmware-support", admin, {
      firmwareId,
      ecuFamily: "TEST",
      manufacturer: "Bosch",
      imageSize,
    });
    expect(record.statusCode, record.body).toBe(201);
    if (stock) {
      const stored = await upload(`/firmware-support/firmware-support/${record.json().id}/stock-file`, admin, stock);
      expect(stored.statusCode, stored.body).toBe(200);
    }
  };

  beforeAll(async () => {
    test = await startTestApp("pglite");
    app = test.app;
    [admin, dealer] = await createUsers(test, ["admin", "dealer"]);
    await createFirmware("MS45TEST", 0x100000, fixture("images/ms45.bin"));
    await createFirmware("MG1TEST", 0x800000);
    await createFirmware("MSS54TEST", 0x10000);
    await createFirmware("A2WC400K", 0x100000);
  });
  afterAll(() => test?.close());

  it("previews and saves the 2.9 MB MS45 XDF, with maps read from its stock file", async () => {
    const preview = await importFiles(admin, [part("ms45.xdf", fixture(MS45))], { firmwareId: "MS45TEST" });
    expect(preview.statusCode, preview.body.slice(0, 500)).toBe(200);
    const read = preview.json();
    expect(read.format).toBe("xdf");
    expect(read.summary).toMatchObject({ items: 4121, skipped: 0 });
    expect(read.summary.byKind.constant).toBe(3065);
    expect(read.summary.byKind.table1d + read.summary.byKind.table2d).toBe(1056);
    expect(read.definition.categories).toHaveLength(302);
    expect(read.samples.length).toBeGreaterThan(0);
    expect(await storedDefinition("MS45TEST")).toBeNull();

    const saved = await importFiles(admin, [part("ms45.xdf", fixture(MS45))], {
      firmwareId: "MS45TEST",
      dryRun: "false",
      saveDefinition: "true",
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(201);
    expect(saved.json().saved).toEqual({ definition: true, checksums: [], refusedChecksums: [] });
    expect((await storedDefinition("MS45TEST"))?.items).toHaveLength(4121);
  });

  it("previews and saves the 1.5 MB MG1 XDF", async () => {
    const preview = await importFiles(admin, [part("mg1.xdf", fixture(MG1))], { firmwareId: "MG1TEST" });
    expect(preview.statusCode, preview.body.slice(0, 500)).toBe(200);
    expect(preview.json().summary).toMatchObject({ items: 1201, skipped: 0, byKind: { flag: 3 } });
    expect(preview.json().definition.categories).toHaveLength(76);

    const saved = await importFiles(admin, [part("mg1.xdf", fixture(MG1))], {
      firmwareId: "MG1TEST",
      dryRun: "false",
      saveDefinition: "true",
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(201);
    expect((await storedDefinition("MG1TEST"))?.items).toHaveLength(1201);
  });

  it("reads a Windows-1252 file in its own encoding: its °C arrives as °C", async () => {
    const response = await importFiles(admin, [part("mss54.xdf", fixture(MSS54))], { firmwareId: "MSS54TEST" });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    const units = unitsOf(response.body);
    expect(units).toContain('"°C"');
    expect(units.filter((unit) => unit.includes("\uFFFD"))).toEqual([]);

    // A file that says so in its declaration, the ° written as the byte B0.
    const declared = Uint8Array.from([
      ...ascii('<?xml version="1.0" encoding="windows-1252"?>\n<XDFFORMAT><XDFHEADER><REGION size="0x10000"/>'),
      ...ascii('</XDFHEADER><XDFCONSTANT uniqueid="0x1"><title>Coolant</title><units>'),
      0xb0,
      ...ascii('C</units><EMBEDDEDDATA mmedaddress="0x10" mmedelementsizebits="8"/></XDFCONSTANT></XDFFORMAT>'),
    ]);
    const one = await importFiles(admin, [part("declared.xdf", declared)], { firmwareId: "MSS54TEST" });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().definition.items).toMatchObject([{ title: "Coolant" }]);
    expect(unitsOf(one.body)).toEqual(["°C"]);
  });

  it("imports a rom and its base sent as two files, combined on the server", async () => {
    const response = await importFiles(
      admin,
      [
        part("ecuflash-subaru-A2WC400K.xml", fixture("new-formats/ecuflash-subaru-A2WC400K.xml")),
        part("ecuflash-subaru-32BITBASE.xml", fixture("new-formats/ecuflash-subaru-32BITBASE.xml")),
      ],
      { firmwareId: "A2WC400K" },
    );
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    expect(response.json()).toMatchObject({ format: "ecuflash", rom: { xmlId: "A2WC400K", inherits: ["32BITBASE"] } });
    expect(response.json().summary.items).toBeGreaterThan(0);
  });

  it("takes a file of exactly 8 MiB and refuses one byte more with a 413 naming the limit, storing nothing", async () => {
    const xdf = ascii(
      '<XDFFORMAT><XDFHEADER><REGION size="0x10000"/></XDFHEADER><XDFCONSTANT uniqueid="0x1"><title>C</title>' +
        '<EMBEDDEDDATA mmedaddress="0x10" mmedelementsizebits="8"/></XDFCONSTANT></XDFFORMAT>\n<!--',
    );
    const padded = (size: number) => {
      const bytes = new Uint8Array(size).fill(0x20);
      bytes.set(xdf);
      bytes.set(ascii("-->"), size - 3);
      return bytes;
    };
    const exact = await importFiles(admin, [part("big.xdf", padded(DEFINITION_MAX_BYTES))], {
      firmwareId: "MSS54TEST",
    });
    expect(exact.statusCode, exact.body.slice(0, 500)).toBe(200);
    expect(exact.json().summary.items).toBe(1);

    const before = await storedDefinition("MSS54TEST");
    const over = await importFiles(admin, [part("big.xdf", padded(DEFINITION_MAX_BYTES + 1))], {
      firmwareId: "MSS54TEST",
      dryRun: "false",
      saveDefinition: "true",
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      statusCode: 413,
      message: "Payload too large",
      description:
        'The definition file "big.xdf" is larger than 8 MiB (8388608 bytes), the most a definition file may have',
      data: { limitBytes: DEFINITION_MAX_BYTES, field: "file", filename: "big.xdf" },
    });
    expect(await storedDefinition("MSS54TEST")).toEqual(before);
  });

  it("checks the form fields with the JSON body's contract, naming the field", async () => {
    const file = [part("c.xdf", ascii('<XDFFORMAT><XDFHEADER><REGION size="0x10000"/></XDFHEADER></XDFFORMAT>'))];
    const negative = await importFiles(admin, file, { firmwareId: "MSS54TEST", patchIndexes: "[-1]" });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().data).toEqual([{ path: "patchIndexes.0", message: "patchIndexes start at 0" }]);
    const notBoolean = await importFiles(admin, file, { firmwareId: "MSS54TEST", dryRun: "maybe" });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().data).toEqual([{ path: "dryRun", message: expect.stringContaining("boolean") }]);
    const offset = await importFiles(admin, file, { firmwareId: "MSS54TEST", addressOffset: "-5" });
    expect(offset.json().data).toEqual([{ path: "addressOffset", message: "addressOffset must not be negative" }]);
    const unknown = await importFiles(admin, file, { firmwareId: "MSS54TEST", xml: "<XDFFORMAT/>" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data).toEqual([{ path: "xml", message: expect.any(String) }]);
    const noFirmware = await importFiles(admin, file, {});
    expect(noFirmware.json().data).toEqual([{ path: "firmwareId", message: expect.any(String) }]);
  });

  it("refuses a form without a file, an empty file and a dealer", async () => {
    const none = await importFiles(admin, [], { firmwareId: "MSS54TEST" });
    expect(none.statusCode).toBe(400);
    expect(none.json().description).toBe('Attach the definition file as a "file" part');
    const empty = await importFiles(admin, [part("empty.xdf", new Uint8Array())], { firmwareId: "MSS54TEST" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().data).toEqual([{ path: "file.0", message: 'the definition file "empty.xdf" is empty' }]);
    const file = [part("c.xdf", fixture(MSS54))];
    expect((await importFiles(dealer, file, { firmwareId: "MSS54TEST" })).statusCode).toBe(403);
  });
});
