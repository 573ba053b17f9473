import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TuneError } from "../../../../domain/tune/errors";
import { readItem } from "../../../../domain/tune/maps";
import { importXdf } from "../../../../domain/tune/xdf";
import { parseXml } from "../../../../domain/tune/xml";
import { thrownBy } from "../../support/thrown";

const fixture = readFileSync(new URL("./fixtures/small.xdf", import.meta.url), "utf8");

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

/** A minimal XDF around the given body, for the refusal cases. */
const xdf = (body: string) => `<XDFFORMAT><XDFHEADER><REGION size="0x100" /></XDFHEADER>${body}</XDFFORMAT>`;

describe("XML reader", () => {
  it("reads elements, attributes, entities, CDATA and skips comments", () => {
    const root = parseXml(
      `<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n<a k='1 &lt; 2'><!-- c --><b>x &amp; y &#65;&#x42;</b><c/><![CDATA[<raw>]]></a>`,
    );
    expect(root.name).toBe("a");
    expect(root.attributes).toEqual({ k: "1 < 2" });
    expect(root.children.map((c) => c.name)).toEqual(["b", "c"]);
    expect(root.children[0].text).toBe("x & y AB");
    expect(root.text).toBe("<raw>");
    expect(root.children[0].line).toBe(3);
  });

  it("refuses malformed markup with the line", () => {
    expect(() => parseXml("<a>\n<b></a>")).toThrow("</a> closes <b> opened on line 2 (line 2)");
    expect(() => parseXml("<a>\n<b>")).toThrow("<b> opened on line 2 is never closed");
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow("attribute x repeated in <a>");
    expect(() => parseXml("<a>&nbsp;</a>")).toThrow("unknown entity &nbsp;");
    expect(() => parseXml("<a/><b/>")).toThrow("content after the root element");
  });
});

describe("TunerPro XDF import", () => {
  const imported = importXdf(fixture, { firmwareId: "TEST-ECU" });
  const items = imported.definition.items;
  const byTitle = (title: string) => items.filter((i) => i.title === title);

  it("imports the header: image size from REGION and categories", () => {
    expect(imported.definition.firmwareId).toBe("TEST-ECU");
    expect(imported.definition.imageSize).toBe(0x1000);
    expect(imported.definition.categories).toEqual([
      { id: "fuel_air", name: "Fuel & air" },
      { id: "ignition", name: "Ignition" },
    ]);
  });

  it("imports a 2-D table with type flags, base offset, equation, an image axis and static labels", () => {
    expect(byTitle("Boost target")[0]).toEqual({
      id: "Boost_target",
      title: "Boost target",
      description: "Target boost by load and rpm",
      category: "fuel_air",
      kind: "table2d",
      z: {
        address: 0x100,
        bits: 16,
        signed: false,
        endian: "little",
        float: false,
        toPhysical: "X*0.1",
        unit: "psi",
        decimals: 1,
        rows: 4,
        cols: 3,
        columnMajor: false,
      },
      x: {
        address: 0xf0,
        bits: 8,
        signed: false,
        endian: "big",
        float: false,
        toPhysical: "X*100",
        unit: "%",
        count: 3,
      },
      y: { count: 4, labels: ["2000", "3000", "4000", "5000"], unit: "rpm" },
    });
  });

  it("maps signed and column-major flags and leaves out an index-only axis", () => {
    const knock = byTitle("Knock retard")[0];
    expect(knock).toMatchObject({
      kind: "table2d",
      category: "ignition",
      z: { signed: true, endian: "big", columnMajor: true, address: 0x200 },
    });
    expect(knock.kind === "table2d" && knock.x).toBeUndefined();
  });

  it("turns one-column and one-row tables into 1-D tables along the axis that has the cells", () => {
    expect(byTitle("Warm-up enrichment")[0]).toMatchObject({
      id: "Warm-up_enrichment",
      kind: "table1d",
      z: { rows: 5, cols: 1 },
      x: { labels: ["-20", "0", "20", "40", "60"], unit: "°C" },
    });
    expect(byTitle("Lambda target")[0]).toMatchObject({
      kind: "table1d",
      z: { float: true, bits: 32, rows: 1, cols: 4, address: 0x230 },
      x: { address: 0x220, bits: 16, count: 4, unit: "rpm" },
    });
  });

  it("imports constants and flags, giving repeated titles distinct ids", () => {
    expect(byTitle("Rev limit").map((i) => i.id)).toEqual(["Rev_limit", "Rev_limit_2"]);
    expect(byTitle("Rev limit")[1].z).toMatchObject({ signed: true, endian: "little", bits: 16 });
    expect(byTitle("Launch control")[0]).toMatchObject({ kind: "flag", mask: 0x80, z: { address: 0x250, bits: 8 } });
  });

  it("imports patches with base offset applied, for the firmware given", () => {
    expect(imported.patches).toEqual([
      {
        id: "pops_bangs",
        title: "Pops & bangs",
        description: "Overrun fuelling",
        firmwareIds: ["TEST-ECU"],
        entries: [
          { address: 0x300, patch: "AA55", base: "0000" },
          { address: 0x310, patch: "01", base: "FF" },
        ],
      },
    ]);
  });

  it("lists checksums it cannot compute as not supported", () => {
    expect(imported.warnings).toEqual([
      'XDFCHECKSUM "Plugin checksum" (uniqueid 0x40) on line 92 skipped: not supported: Plugin checksum (no REGION)',
    ]);
  });

  it("reads an image through the imported definition as TunerPro would show it", () => {
    const image = Buffer.alloc(0x1000);
    [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120].forEach((raw, i) => {
      image.writeUInt16LE(raw, 0x100 + 2 * i);
    });
    image.set([1, 2, 3], 0xf0);
    image.set([0xfc, 4, 0xf8, 8], 0x200); // column-major signed: col 0 = [-4, 4], col 1 = [-8, 8]
    image.writeUInt16BE(28000, 0x240);
    image.writeFloatBE(0.85, 0x230);
    const boost = readItem(image, byTitle("Boost target")[0]);
    expect(boost.values).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(boost.x).toEqual({ unit: "%", values: [100, 200, 300] });
    expect(readItem(image, byTitle("Knock retard")[0]).values).toEqual([-3, -6, 3, 6]);
    expect(readItem(image, byTitle("Rev limit")[0]).values).toEqual([7000]);
    expect(readItem(image, byTitle("Lambda target")[0]).values[0]).toBe(Math.fround(0.85));
  });

  it("applies an additive base offset", () => {
    const shifted = importXdf(
      xdf(`<XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x10" /></XDFCONSTANT>`).replace(
        "<REGION",
        '<BASEOFFSET offset="0x20" subtract="0" /><REGION',
      ),
      {
        firmwareId: "F",
      },
    );
    expect(shifted.definition.items[0].z.address).toBe(0x30);
  });

  it("takes the image size from the options over the REGION", () => {
    expect(importXdf(xdf(""), { firmwareId: "F", imageSize: 0x2000 }).definition.imageSize).toBe(0x2000);
  });
});

describe("TunerPro XDF tolerance: an element that cannot be read is skipped, the rest imports", () => {
  const skipped = (body: string) => importXdf(xdf(body), { firmwareId: "F" }).warnings;

  it("names the element, its uniqueid, its line and what is wrong", () => {
    expect(
      skipped(
        `<XDFTABLE uniqueid="0x7"><title>Spark</title><XDFAXIS id="z"><EMBEDDEDDATA mmedelementsizebits="8" /></XDFAXIS></XDFTABLE>`,
      ),
    ).toEqual([
      'XDFTABLE "Spark" (uniqueid 0x7) on line 1 skipped: axis z: no mmedaddress: nothing to read (a heading or divider)',
    ]);
    expect(skipped(`<XDFTABLE><title>Spark</title></XDFTABLE>`)).toEqual([
      'XDFTABLE "Spark" on line 1 skipped: missing XDFAXIS id="z"',
    ]);
    expect(skipped(`<XDFCONSTANT><title>C</title></XDFCONSTANT>`)).toEqual([
      'XDFCONSTANT "C" on line 1 skipped: missing EMBEDDEDDATA',
    ]);
    expect(skipped(`<XDFFLAG><title>F</title><EMBEDDEDDATA mmedaddress="0x1" /></XDFFLAG>`)).toEqual([
      'XDFFLAG "F" on line 1 skipped: missing mask',
    ]);
    expect(skipped(`<XDFCONSTANT><EMBEDDEDDATA mmedaddress="0x1" /></XDFCONSTANT>`)).toEqual([
      "XDFCONSTANT (untitled) on line 1 skipped: missing title",
    ]);
    expect(
      skipped(
        `<XDFPATCH><title>P</title><XDFPATCHENTRY name="e" address="0x1" datasize="1" patchdata="01" /></XDFPATCH>`,
      ),
    ).toEqual([
      'XDFPATCH "P" on line 1 skipped: entry 1 "e": no basedata, and no stock file to read the base bytes from (without them the patch could not be checked or removed)',
    ]);
  });

  it("reads equations written with the MATH's own variable, in any case; skips linked variables and malformed equations", () => {
    const result = importXdf(
      xdf(
        `<XDFCONSTANT><title>A</title><EMBEDDEDDATA mmedaddress="0x1" /><MATH equation="x/128"><VAR id="x" /></MATH></XDFCONSTANT>` +
          `<XDFCONSTANT><title>B</title><EMBEDDEDDATA mmedaddress="0x1" /><MATH equation="X/1023*5"><VAR id="x" /></MATH></XDFCONSTANT>` +
          `<XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x1" /><MATH equation="X*A"><VAR id="X" /><VAR id="A" type="link" linkid="0x5" /></MATH></XDFCONSTANT>` +
          `<XDFCONSTANT><title>D</title><EMBEDDEDDATA mmedaddress="0x1" /><MATH equation="(x/2))"><VAR id="x" /></MATH></XDFCONSTANT>`,
      ),
      { firmwareId: "F" },
    );
    expect(result.definition.items.map((i) => [i.title, i.z.toPhysical])).toEqual([
      ["A", "X/128"],
      ["B", "X/1023*5"],
    ]);
    expect(result.skipped.map((s) => [s.title, s.reason])).toEqual([
      ["C", 'equation "X*A": variable A is linked (link) to another value, which is not supported'],
      ["D", `equation "(x/2))": Unexpected token ')' at 5`],
    ]);
  });

  it("accepts strides TunerPro writes for contiguous cells, skips real gaps", () => {
    const result = importXdf(
      xdf(
        // One-row table and an axis whose major stride is the element size; TunerPro's -32 placeholder.
        `<XDFTABLE><title>Row</title><XDFAXIS id="x"><EMBEDDEDDATA mmedaddress="0x40" mmedelementsizebits="8" mmedcolcount="4" mmedmajorstridebits="8" /><indexcount>4</indexcount></XDFAXIS>` +
          `<XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x10" mmedelementsizebits="16" mmedrowcount="1" mmedcolcount="4" mmedmajorstridebits="16" /></XDFAXIS></XDFTABLE>` +
          `<XDFTABLE><title>Column</title><XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x20" mmedelementsizebits="16" mmedrowcount="4" mmedcolcount="1" mmedmajorstridebits="16" /></XDFAXIS></XDFTABLE>` +
          `<XDFTABLE><title>Placeholder</title><XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x30" mmedrowcount="2" mmedcolcount="2" mmedmajorstridebits="-32" /></XDFAXIS></XDFTABLE>` +
          `<XDFTABLE><title>Gaps</title><XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x1" mmedrowcount="2" mmedcolcount="2" mmedminorstridebits="16" /></XDFAXIS></XDFTABLE>`,
      ),
      { firmwareId: "F" },
    );
    expect(result.definition.items.map((i) => [i.title, i.kind])).toEqual([
      ["Row", "table1d"],
      ["Column", "table1d"],
      ["Placeholder", "table2d"],
    ]);
    expect(result.definition.items[0]).toMatchObject({ x: { address: 0x40, count: 4 } });
    expect(result.skipped).toEqual([
      {
        element: "XDFTABLE",
        title: "Gaps",
        line: 1,
        reason: "axis z: element strides (major 0, minor 16 bits) leave gaps between cells, which is not supported",
      },
    ]);
  });

  it("fills labels an axis does not give with their index, and leaves out an axis it cannot read, keeping the table", () => {
    const result = importXdf(
      xdf(
        `<XDFTABLE><title>T</title><XDFAXIS id="x"><LABEL index="0" value="a" /><indexcount>2</indexcount></XDFAXIS>` +
          `<XDFAXIS id="y"><EMBEDDEDDATA mmedaddress="0xFF" mmedelementsizebits="16" /><indexcount>2</indexcount></XDFAXIS>` +
          `<XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x1" mmedrowcount="2" mmedcolcount="2" /></XDFAXIS></XDFTABLE>`,
      ),
      { firmwareId: "F" },
    );
    const item = result.definition.items[0];
    expect(item.kind === "table2d" && item.x).toEqual({ count: 2, labels: ["a", "1"] });
    expect(item.kind === "table2d" && item.y).toBeUndefined();
    expect(result.warnings).toEqual([
      'XDFTABLE "T" on line 1: axis x: labels for 1 of 2 indexes, the others show their index',
      'XDFTABLE "T" on line 1: axis y left out: ends at 0x103, beyond the image size 0x100',
    ]);
  });

  it("skips items that do not fit the image", () => {
    expect(
      skipped(
        `<XDFCONSTANT><title>Late</title><EMBEDDEDDATA mmedaddress="0xFF" mmedelementsizebits="16" /></XDFCONSTANT>`,
      ),
    ).toEqual(['XDFCONSTANT "Late" on line 1 skipped: its data ends at 0x101, beyond the image size 0x100']);
  });

  it("takes a patch's missing base bytes from the stock image when given", () => {
    const stock = new Uint8Array(0x100).fill(0x11);
    const result = importXdf(
      xdf(
        `<XDFPATCH><title>P</title><XDFPATCHENTRY name="e" address="0x10" datasize="2" patchdata="AABB" /></XDFPATCH>`,
      ),
      { firmwareId: "F", stockImage: stock },
    );
    expect(result.patches).toEqual([
      {
        id: "p",
        title: "P",
        description: "",
        firmwareIds: ["F"],
        entries: [{ address: 0x10, patch: "AABB", base: "1111" }],
      },
    ]);
    expect(result.skipped).toEqual([]);
  });

  it("refuses only files that are not XDF, saying what they are", () => {
    expect(() => importXdf("<ROMDEF/>", { firmwareId: "F" })).toThrow(
      "not an XDF: the root element is <ROMDEF>, expected <XDFFORMAT>",
    );
    expect(() => importXdf("<rom/>", { firmwareId: "F" })).toThrow(
      "not an XDF: the root element is <rom> (a RomRaider/EcuFlash definition), expected <XDFFORMAT>",
    );
    expect(() => importXdf("<XDFFORMAT><XDFTABLE a=1></XDFTABLE></XDFFORMAT>", { firmwareId: "F" })).toThrow(
      /^not a readable XDF: /,
    );
    expect(() => importXdf("hello", { firmwareId: "F" })).toThrow(
      /^not an XDF \(neither the XML format nor the XDF 1.x text format\)/,
    );
    const error = refusal(() => importXdf("<XDFFORMAT><XDFHEADER /></XDFFORMAT>", { firmwareId: "F" }));
    expect(error.code).toBe("xdf_invalid");
    expect(error.message).toContain("no image size");
  });

  it("counts what came in and what was skipped, by reason", () => {
    const result = importXdf(
      xdf(
        `<XDFCONSTANT><title>A</title></XDFCONSTANT><XDFFLAG><title>B</title><EMBEDDEDDATA mmedaddress="0x1" /></XDFFLAG><XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x1" /></XDFCONSTANT>`,
      ),
      { firmwareId: "F" },
    );
    expect(result.summary).toEqual({
      items: 1,
      byKind: { constant: 1, flag: 0, enum: 0, table1d: 0, table2d: 0 },
      patches: 0,
      checksums: 0,
      skipped: 2,
      skippedReasons: [
        { reason: "missing EMBEDDEDDATA", count: 1 },
        { reason: "missing mask", count: 1 },
      ],
    });
  });
});
