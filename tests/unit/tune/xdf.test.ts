import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TuneError } from "../../../domain/tune/errors";
import { readItem } from "../../../domain/tune/maps";
import { importXdf } from "../../../domain/tune/xdf";
import { parseXml } from "../../../domain/tune/xml";
import { thrownBy } from "../thrown";

const fixture = readFileSync(new URL("./fixtures/small.xdf", import.meta.url), "utf8");

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

/** A minimal XDF around the given body, for the refusal cases. */
const xdf = (body: string) => `<XDFFORMAT><XDFHEADER><REGION size="0x100" /></XDFHEADER>${body}</XDFFORMAT>`;

describe("XML reader", () => {
  it("reads elements, attributes, entities, CDATA and skips comments", () => {
    const root = parseXml(`<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n<a k='1 &lt; 2'><!-- c --><b>x &amp; y &#65;&#x42;</b><c/><![CDATA[<raw>]]></a>`);
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
      z: { address: 0x100, bits: 16, signed: false, endian: "little", float: false, toPhysical: "X*0.1", unit: "psi", decimals: 1, rows: 4, cols: 3, columnMajor: false },
      x: { address: 0xf0, bits: 8, signed: false, endian: "big", float: false, toPhysical: "X*100", unit: "%", count: 3 },
      y: { count: 4, labels: ["2000", "3000", "4000", "5000"], unit: "rpm" },
    });
  });

  it("maps signed and column-major flags and leaves out an index-only axis", () => {
    const knock = byTitle("Knock retard")[0];
    expect(knock).toMatchObject({ kind: "table2d", category: "ignition", z: { signed: true, endian: "big", columnMajor: true, address: 0x200 } });
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

  it("warns about elements it does not import", () => {
    expect(imported.warnings).toEqual(['XDFCHECKSUM "Plugin checksum" (uniqueid 0x40) on line 92: XDFCHECKSUM is not imported']);
  });

  it("reads an image through the imported definition as TunerPro would show it", () => {
    const image = Buffer.alloc(0x1000);
    [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120].forEach((raw, i) => image.writeUInt16LE(raw, 0x100 + 2 * i));
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
    const shifted = importXdf(xdf(`<XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x10" /></XDFCONSTANT>`).replace("<REGION", '<BASEOFFSET offset="0x20" subtract="0" /><REGION'), {
      firmwareId: "F",
    });
    expect(shifted.definition.items[0].z.address).toBe(0x30);
  });

  it("takes the image size from the options over the REGION", () => {
    expect(importXdf(xdf(""), { firmwareId: "F", imageSize: 0x2000 }).definition.imageSize).toBe(0x2000);
  });
});

describe("TunerPro XDF refusals", () => {
  const problems = (body: string) => refusal(() => importXdf(xdf(body), { firmwareId: "F" })).details.problems;

  it("names the element and the missing field", () => {
    expect(problems(`<XDFTABLE uniqueid="0x7"><title>Spark</title><XDFAXIS id="z"><EMBEDDEDDATA mmedelementsizebits="8" /></XDFAXIS></XDFTABLE>`)).toEqual([
      'XDFTABLE "Spark" (uniqueid 0x7) on line 1 axis z: missing mmedaddress',
    ]);
    expect(problems(`<XDFTABLE><title>Spark</title></XDFTABLE>`)).toEqual(['XDFTABLE "Spark" on line 1: missing XDFAXIS id="z"']);
    expect(problems(`<XDFCONSTANT><title>C</title></XDFCONSTANT>`)).toEqual(['XDFCONSTANT "C" on line 1: missing EMBEDDEDDATA']);
    expect(problems(`<XDFFLAG><title>F</title><EMBEDDEDDATA mmedaddress="0x1" /></XDFFLAG>`)).toEqual(['XDFFLAG "F" on line 1: missing mask']);
    expect(problems(`<XDFCONSTANT><EMBEDDEDDATA mmedaddress="0x1" /></XDFCONSTANT>`)).toEqual(["XDFCONSTANT (untitled) on line 1: missing title"]);
    expect(problems(`<XDFPATCH><title>P</title><XDFPATCHENTRY name="e" address="0x1" datasize="1" patchdata="01" /></XDFPATCH>`)).toEqual([
      'XDFPATCH "P" on line 1 entry 1 "e": missing basedata (without it the patch could not be removed or checked)',
    ]);
  });

  it("refuses equations our evaluator cannot run, naming TunerPro's linked variables", () => {
    expect(problems(`<XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x1" /><MATH equation="X*A"><VAR id="X" /><VAR id="A" type="link" /></MATH></XDFCONSTANT>`)).toEqual([
      `XDFCONSTANT "C" on line 1: equation "X*A": Unknown variable 'A' at 2`,
    ]);
  });

  it("refuses bad element sizes, strides and label counts", () => {
    expect(problems(`<XDFCONSTANT><title>C</title><EMBEDDEDDATA mmedaddress="0x1" mmedelementsizebits="24" /></XDFCONSTANT>`)).toEqual([
      'XDFCONSTANT "C" on line 1: mmedelementsizebits 24 is not 8, 16 or 32',
    ]);
    expect(
      problems(`<XDFTABLE><title>T</title><XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x1" mmedrowcount="2" mmedcolcount="2" mmedminorstridebits="16" /></XDFAXIS></XDFTABLE>`),
    ).toEqual(['XDFTABLE "T" on line 1 axis z: element strides (major 0, minor 16 bits) are not contiguous and are not supported']);
    expect(
      problems(
        `<XDFTABLE><title>T</title><XDFAXIS id="x"><LABEL index="0" value="a" /></XDFAXIS><XDFAXIS id="z"><EMBEDDEDDATA mmedaddress="0x1" mmedrowcount="2" mmedcolcount="2" /></XDFAXIS></XDFTABLE>`,
      ),
    ).toEqual(["XDFTABLE \"T\" on line 1 axis x: 1 labels do not match the table's 2 cells along it"]);
  });

  it("refuses items that do not fit the image, through the definition schema", () => {
    expect(problems(`<XDFCONSTANT><title>Late</title><EMBEDDEDDATA mmedaddress="0xFF" mmedelementsizebits="16" /></XDFCONSTANT>`)).toEqual([
      'XDFCONSTANT "Late" on line 1: item "Late" z ends at 0x101, beyond the image size 0x100',
    ]);
  });

  it("refuses files that are not XDF", () => {
    expect(() => importXdf("<ROMDEF/>", { firmwareId: "F" })).toThrow("not an XDF: the root element is <ROMDEF>, expected <XDFFORMAT>");
    expect(() => importXdf("<XDFFORMAT><XDFTABLE>", { firmwareId: "F" })).toThrow(/^not a readable XDF: <XDFTABLE> opened on line 1 is never closed/);
  });

  it("lists every problem, not only the first", () => {
    const error = refusal(() => importXdf(xdf(`<XDFCONSTANT><title>A</title></XDFCONSTANT><XDFFLAG><title>B</title><EMBEDDEDDATA mmedaddress="0x1" /></XDFFLAG>`), { firmwareId: "F" }));
    expect(error.code).toBe("xdf_invalid");
    expect(error.message).toBe('the XDF cannot be imported: XDFCONSTANT "A" on line 1: missing EMBEDDEDDATA; XDFFLAG "B" on line 1: missing mask');
  });
});
