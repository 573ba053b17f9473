/**
 * Every real definition in ../shared/fixtures/definitions imports, checked
 * against an independent reading of each file: the elements are counted here
 * with plain regular expressions over the text (not through our XML reader),
 * and the ones that cannot be imported (no address, malformed equation) are
 * told apart the same way. Where a real ECU read of the same software is in
 * ../shared/fixtures/images, a few maps are read from it and must hold values
 * a tuner would recognise.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../contracts/tune-definition";
import { checkedTuneDefinitionSchema } from "../../../../domain/tune/checked-schemas";
import { readItem } from "../../../../domain/tune/maps";
import { importXdf, type XdfImport } from "../../../../domain/tune/xdf";
import { exportXdf } from "../../../../domain/tune/xdf-export";

const FIXTURES = new URL("../../../../../shared/fixtures/", import.meta.url);
const definitionFile = (name: string) => readFileSync(new URL(`definitions/${name}`, FIXTURES), "latin1");
const imageFile = (name: string) => new Uint8Array(readFileSync(new URL(`images/${name}`, FIXTURES)));

interface Reading {
  /** Elements that describe an item: tables, constants, flags, functions. */
  items: number;
  /** Of those, the ones with nothing to read: no mmedaddress on the data (z axis of a table, y axis of a function). */
  noAddress: number;
  /** Of those, the ones whose data equation has unbalanced parentheses. */
  badEquation: number;
  patches: number;
  checksums: number;
}

/** Counts with regular expressions over the XML text, independently of the importer. */
function readXml(text: string): Reading {
  const reading: Reading = { items: 0, noAddress: 0, badEquation: 0, patches: 0, checksums: 0 };
  for (const match of text.matchAll(/<(XDFTABLE|XDFCONSTANT|XDFFLAG|XDFFUNCTION)\b[\s\S]*?<\/\1>/g)) {
    reading.items++;
    const [block, kind] = match;
    // The part holding the data: the z axis of a table, the y axis of a function, the element itself otherwise.
    const data =
      kind === "XDFTABLE"
        ? (/<XDFAXIS id="z"[\s\S]*?<\/XDFAXIS>/.exec(block)?.[0] ?? "")
        : kind === "XDFFUNCTION"
          ? (/<XDFAXIS id="y"[\s\S]*?<\/XDFAXIS>/.exec(block)?.[0] ?? "")
          : block.replace(/<XDFAXIS[\s\S]*?<\/XDFAXIS>/g, "");
    if (!/<EMBEDDEDDATA[^>]*mmedaddress=/.test(data)) {
      reading.noAddress++;
      continue;
    }
    const equation = /<MATH equation="([^"]*)"/.exec(data)?.[1] ?? "X";
    let depth = 0;
    for (const c of equation) {
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      if (depth < 0) break;
    }
    if (depth !== 0) reading.badEquation++;
  }
  reading.patches = (text.match(/<XDFPATCH\b(?!ENTRY)/g) ?? []).length;
  reading.checksums = (text.match(/<XDFCHECKSUM\b/g) ?? []).length;
  return reading;
}

const files = readdirSync(new URL("definitions/", FIXTURES)).filter((name) => name.endsWith(".xdf"));

describe("real TunerPro definitions import as TunerPro reads them", () => {
  it("has the fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  for (const name of files.filter((f) => !f.includes("legacy"))) {
    it(`${name}: every element is imported or skipped with its reason, matching an independent count`, () => {
      const text = definitionFile(name);
      const reading = readXml(text);
      const result = importXdf(text, { firmwareId: "FIXTURE" });
      const skippedItems = result.skipped.filter((s) => !["XDFPATCH", "XDFCHECKSUM"].includes(s.element));
      expect(result.summary.items + skippedItems.length, "imported + skipped = items in the file").toBe(reading.items);
      expect(skippedItems.filter((s) => s.reason.includes("no mmedaddress")).length).toBe(reading.noAddress);
      expect(skippedItems.filter((s) => s.reason.startsWith("equation")).length).toBe(reading.badEquation);
      expect(skippedItems.length, result.warnings.slice(0, 5).join("\n")).toBe(reading.noAddress + reading.badEquation);
      expect(result.patches.length + result.skipped.filter((s) => s.element === "XDFPATCH").length).toBe(
        reading.patches,
      );
      expect(result.checksums.length + result.skipped.filter((s) => s.element === "XDFCHECKSUM").length).toBe(
        reading.checksums,
      );
      // The importer checks items one by one; the document as a whole must pass the contract too.
      const document = checkedTuneDefinitionSchema.safeParse(result.definition);
      expect(document.error?.issues.slice(0, 3)).toBeUndefined();
      expect(document.data).toEqual(result.definition);
      for (const s of result.skipped) {
        expect(s.line).toBeGreaterThan(0);
        expect(s.reason.length).toBeGreaterThan(0);
      }
    });
  }

  // Numbers read by hand from the files (element counts with grep, the divider elements and the two
  // equations "(((1/(x/512))/1023)*5)*1000)" in mss54 by eye).
  const expected: Record<string, { items: number; skipped: number; byKind: Partial<XdfImport["summary"]["byKind"]> }> =
    {
      "me7-8D0907551M.xdf": { items: 449, skipped: 0, byKind: { constant: 257, table1d: 97, table2d: 95 } },
      "me72-540i-5A01.xdf": { items: 59, skipped: 2, byKind: { constant: 24 } },
      "mg1-b58gen2-00005D55289606.xdf": { items: 1201, skipped: 0, byKind: { flag: 3 } },
      "ms45.xdf": { items: 4121, skipped: 0, byKind: { constant: 3065 } },
      // 148 tables + 374 constants + 104 functions; 32 dividers and 9 divider functions have no address, 2 equations are malformed.
      "mss54-hw0401.xdf": { items: 583, skipped: 43, byKind: { constant: 355 } },
      // XDF 1.x: 22 %%TABLE%% blocks and one %%CONSTANT%%.
      "m29-golf-vr6-legacy.xdf": { items: 23, skipped: 0, byKind: { constant: 1, table1d: 14, table2d: 8 } },
    };
  for (const [name, want] of Object.entries(expected)) {
    it(`${name}: ${want.items} items imported, ${want.skipped} skipped`, () => {
      const result = importXdf(definitionFile(name), { firmwareId: "FIXTURE" });
      expect(result.summary).toMatchObject({ items: want.items, skipped: want.skipped, byKind: want.byKind });
    });
  }

  it("mss54: equations written with the file's own variable (x/128) are read as X; the skips name the element and why", () => {
    const result = importXdf(definitionFile("mss54-hw0401.xdf"), { firmwareId: "FIXTURE" });
    const fuel = result.definition.items.find((i) => i.title === "Fuel Injection_FULL THROTTLE (18X3)")!;
    expect(fuel).toMatchObject({
      kind: "table2d",
      z: { address: 0xb5a, rows: 3, cols: 18, toPhysical: "X/128" },
      x: { count: 18, toPhysical: "X" },
      y: { count: 3, toPhysical: "X/1000" },
    });
    expect(result.skipped).toContainEqual({
      element: "XDFTABLE",
      title: "----------FUEL------------",
      uniqueId: "0x1F6C",
      line: 76,
      reason: "axis z: no mmedaddress: nothing to read (a heading or divider)",
    });
    expect(result.skipped).toContainEqual({
      element: "XDFCONSTANT",
      title: "Ambient Air Pressure_SLOPE",
      uniqueId: "0x8B9",
      line: 6641,
      reason: `equation "(((1/(x/512))/1023)*5)*1000)": Unexpected token ')' at 27`,
    });
    // XDFFUNCTION: the y values over the x axis.
    const maf = result.definition.items.find((i) => i.title === "Hot Film MAF_VOLTAGE")!;
    expect(maf).toMatchObject({
      kind: "table1d",
      z: { address: 0xd268, rows: 1, cols: 33, signed: true, toPhysical: "X/4" },
      x: { address: 0xd226, count: 33, toPhysical: "X/1023*5" },
    });
  });

  it("mg1: items in several categories keep them all; axes with one label of eight fill the others with their index", () => {
    const text = definitionFile("mg1-b58gen2-00005D55289606.xdf");
    const result = importXdf(text, { firmwareId: "FIXTURE" });
    const latency = result.definition.items.find((i) => i.title === "3D Injector Latency (Auto) - Battery Voltage")!;
    // CATEGORYMEM 39, 72, 70 → CATEGORY index 38, 71, 69.
    const names = (latency.categories ?? []).map((id) => result.definition.categories.find((c) => c.id === id)!.name);
    const header = (index: number) =>
      new RegExp(`<CATEGORY index="0x${index.toString(16).toUpperCase()}" name="([^"]*)"`).exec(text)![1];
    expect(names).toEqual([header(38), header(71), header(69)]);
    expect(latency).toMatchObject({ kind: "table1d", x: { labels: ["0.00", "1", "2", "3", "4", "5", "6", "7"] } });
    // Elements whose CATEGORYMEMs name two or more distinct categories.
    const multi = [...text.matchAll(/<(XDFTABLE|XDFCONSTANT|XDFFLAG)\b[\s\S]*?<\/\1>/g)].filter(
      ([block]) => new Set([...block.matchAll(/<CATEGORYMEM [^>]*category="(\d+)"/g)].map((m) => m[1])).size > 1,
    ).length;
    expect(result.definition.items.filter((i) => i.categories).length).toBe(multi);
  });

  it("m29 (XDF 1.x text): tables with labels, categories and equations", () => {
    const result = importXdf(definitionFile("m29-golf-vr6-legacy.xdf"), { firmwareId: "FIXTURE" });
    expect(result.format).toBe("xdf-1.x");
    expect(result.definition.imageSize).toBe(0x10000);
    expect(result.definition.categories.map((c) => c.name)).toEqual([
      "FuelMaps",
      "IgnitionMaps",
      "IdleMaps",
      "PartThrottleMaps",
      "WOTMaps",
      "AFMMaps",
      "RPMMaps",
    ]);
    expect(result.definition.items[0]).toMatchObject({
      title: "Idle speed vs. engine temperature",
      kind: "table1d",
      z: { address: 0xb879, rows: 1, cols: 4, bits: 8 },
      x: { labels: ["4c", "35c", "70c", "90c"] },
    });
    const highPart = result.definition.items.find((i) => i.title === "High part throttle fuel map")!;
    expect(highPart).toMatchObject({
      category: "fuelmaps",
      categories: ["fuelmaps", "partthrottlemaps"],
      z: { address: 0xadae },
    });
  });
});

describe("maps read from real ECU images hold the values tuners know", () => {
  const read = (result: XdfImport, image: Uint8Array, id: string) => {
    const item = result.definition.items.find((i: TuneItem) => i.id === id);
    expect(item, id).toBeDefined();
    return readItem(image, item!);
  };

  it("ME7.1 (Audi 2.7T): rev limit, driver torque request axes, boost limit", () => {
    const image = imageFile("me7-8D0907551M.bin");
    const result = importXdf(definitionFile("me7-8D0907551M.xdf"), { firmwareId: "FIXTURE", imageSize: image.length });
    expect(read(result, image, "NMAX").values).toEqual([6800]);
    const kfmiop = read(result, image, "KFMIOP");
    expect(kfmiop.rows * kfmiop.cols).toBe(16 * 11);
    for (const v of kfmiop.values) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(100);
    const kfldrl = read(result, image, "KFLDRL");
    expect(kfldrl.x).toEqual({ unit: "%", values: [0, 10, 20, 30, 40, 50, 60, 70, 80, 95] });
  });

  it("ME7.2 (BMW 540i): lambda near 1, ignition advance in degrees, idle speed falling as the engine warms; the patch takes its base from stock", () => {
    const image = imageFile("me72-540i-5A01.bin");
    const result = importXdf(definitionFile("me72-540i-5A01.xdf"), {
      firmwareId: "FIXTURE",
      imageSize: image.length,
      stockImage: image,
    });
    for (const v of read(result, image, "FULL_LOAD_INJECTION_MAP_Lambda_X_RPMS").values)
      expect(v).toBeGreaterThan(0.7), expect(v).toBeLessThan(1.1);
    for (const v of read(result, image, "BASE_IGNITION_TABLE_BANK1").values)
      expect(v).toBeGreaterThan(-15), expect(v).toBeLessThan(60);
    expect(read(result, image, "Optimal_IDLE_RPM_neutral_park").values).toEqual([1000, 800, 600, 550]);
    expect(result.patches).toEqual([
      {
        id: "rpm_limiter_patch_-_6500",
        title: "RPM Limiter Patch - 6500",
        description: "",
        firmwareIds: ["FIXTURE"],
        entries: [
          {
            address: 0x4302,
            patch: "9065",
            base: Buffer.from(image.subarray(0x4302, 0x4304)).toString("hex").toUpperCase(),
          },
        ],
      },
    ]);
    expect(result.skipped.map((s) => s.reason)).toEqual([
      "not supported: ME7 Checksum (TunerPro plugin 9b6fa911-da49-1953-b6c0-1c7d3a9cf006)",
    ]);
  });

  it("MS45 (WinOLS export): MAF substitute over an rpm axis, coolant thresholds in °C", () => {
    const image = imageFile("ms45.bin");
    const result = importXdf(definitionFile("ms45.xdf"), { firmwareId: "FIXTURE" });
    const maf = read(result, image, "IP_MAF_SUB_MON");
    expect(maf.y).toEqual({ unit: "rpm", values: [512, 1312, 1504, 2304, 3040, 4704, 5504, 6400] });
    expect(read(result, image, "C_TCO_SUB_THD_MAX_MON").values).toEqual([120]);
  });
});

describe("XDF export", () => {
  for (const name of files) {
    it(`${name}: import → export → import gives the same items, categories and patches`, () => {
      const options = { firmwareId: "FIXTURE", imageSize: name.startsWith("me72") ? 0x10000 : undefined };
      const first = importXdf(definitionFile(name), options);
      const second = importXdf(exportXdf(first.definition, { patches: first.patches }), options);
      expect(second.skipped).toEqual([]);
      expect(second.definition).toEqual(first.definition);
      expect(second.patches).toEqual(first.patches);
    });
  }

  it("writes what TunerPro needs to open the file: header, region, categories, typed embedded data", () => {
    const result = importXdf(definitionFile("me7-8D0907551M.xdf"), { firmwareId: "FIXTURE" });
    const xdf = exportXdf(result.definition);
    expect(xdf).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n/);
    expect(xdf).toContain('<XDFFORMAT version="1.60">');
    expect(xdf).toContain('<REGION type="0xFFFFFFFF" startaddress="0x0" size="0x100000"');
    expect((xdf.match(/<XDFTABLE /g) ?? []).length).toBe(192);
    expect((xdf.match(/<XDFCONSTANT /g) ?? []).length).toBe(257);
  });
});
