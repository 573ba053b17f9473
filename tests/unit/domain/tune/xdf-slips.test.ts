/**
 * XML XDFs with a local well-formedness slip are read as far as they go, the slip reported with its
 * line, instead of being refused whole. Each case is a real XDF (me72-540i-5A01.xdf) with one slip
 * put in by the test; the file's last line is `</XDFFORMAT>` (line 2334) and its line 84 is
 * `<max>1.990000</max>` (both read with grep -n).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importXdf } from "../../../../domain/tune/xdf";
import { parseXml, type XmlSlip } from "../../../../domain/tune/xml";

const XDF = readFileSync(
  new URL("../../../../../shared/fixtures/definitions/me72-540i-5A01.xdf", import.meta.url),
  "utf8",
);
const options = { firmwareId: "5A01" };
const intact = importXdf(XDF, options);

describe("an XDF with a slip", () => {
  it("an unclosed root: every item is still read, and the slip is reported on the root's line", () => {
    const text = XDF.replace(/<\/XDFFORMAT>\s*$/, "");
    expect(text.length).toBeLessThan(XDF.length);
    const result = importXdf(text, options);
    expect(result.summary).toEqual(intact.summary);
    expect(result.definition).toEqual(intact.definition);
    const rootLine = XDF.slice(0, XDF.indexOf("<XDFFORMAT")).split("\n").length;
    expect(result.warnings.at(-1)).toBe(
      `malformed XML on line ${rootLine}: <XDFFORMAT> is never closed; read as far as it goes`,
    );
  });

  it("a </min> closing <max>: the element is closed there, the items kept, the line of the end tag reported", () => {
    const lines = XDF.split("\n");
    expect(lines[83].trim()).toBe("<max>1.990000</max>");
    lines[83] = lines[83].replace("</max>", "</min>");
    const result = importXdf(lines.join("\n"), options);
    expect(result.summary.items).toBe(intact.summary.items);
    expect(result.warnings.at(-1)).toBe(
      "malformed XML on line 84: </min> closes <max> opened on line 84; read as far as it goes",
    );
  });

  it("an end tag of an element further out closes the ones left open inside it", () => {
    const slips: XmlSlip[] = [];
    const root = parseXml("<a>\n<b>\n<c>text\n</a>", {}, slips);
    expect(root.children[0]).toMatchObject({ name: "b", children: [{ name: "c", text: "text\n" }] });
    expect(slips).toEqual([
      { line: 4, message: "<b> opened on line 2 is never closed; <c> opened on line 3 is never closed" },
    ]);
  });

  it("is still refused without a slip list, as the XML reader's other callers want", () => {
    expect(() => parseXml("<a><b></a>")).toThrow("</a> closes <b> opened on line 1");
  });
});
