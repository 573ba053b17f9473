import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TuneError } from "../../../../domain/tune/errors";
import { importXdf } from "../../../../domain/tune/xdf";
import { parseXml, XML_LIMITS, XmlError } from "../../../../domain/tune/xml";
import { thrownBy } from "../../support/thrown";

const nested = (depth: number) => `${"<a>".repeat(depth)}${"</a>".repeat(depth)}`;
const DEFINITIONS = new URL("../../../../../shared/fixtures/definitions/", import.meta.url);

describe("XML reader limits", () => {
  it("reads elements nested up to the limit, innermost last", () => {
    let element = parseXml(nested(XML_LIMITS.maxDepth));
    let depth = 1;
    while (element.children.length) [element, depth] = [element.children[0], depth + 1];
    expect(depth).toBe(XML_LIMITS.maxDepth);
  });

  it("refuses nesting past the limit, 20,000 deep included, without overflowing the stack", () => {
    expect(() => parseXml(nested(XML_LIMITS.maxDepth + 1))).toThrow(
      `elements are nested more than ${XML_LIMITS.maxDepth} deep (line 1)`,
    );
    expect(() => parseXml(nested(20_000))).toThrow(XmlError);
    // Self-closing elements count too.
    expect(() => parseXml(`${"<a>".repeat(4)}<b/>${"</a>".repeat(4)}`, { maxDepth: 4 })).toThrow(
      "nested more than 4 deep",
    );
  });

  it("refuses a document longer than the limit, and one with too many elements", () => {
    expect(() => parseXml(`<a>${" ".repeat(100)}</a>`, { maxLength: 64 })).toThrow(
      "the document has 107 characters, more than the 64 allowed",
    );
    expect(() => parseXml(`<a>${"<b/>".repeat(10)}</a>`, { maxElements: 10 })).toThrow(
      "the document has more than 10 elements",
    );
    expect(parseXml(`<a>${"<b/>".repeat(9)}</a>`, { maxElements: 10 }).children).toHaveLength(9);
  });

  it("an XDF past the limits is refused as xdf_invalid, naming the limit", () => {
    const error = thrownBy(TuneError, () => importXdf(`<XDFFORMAT>${nested(20_000)}</XDFFORMAT>`, { firmwareId: "X" }));
    expect(error.code).toBe("xdf_invalid");
    expect(error.message).toContain("nested more than 256 deep");
  });

  it("reads every shared XML definition fixture within the limits", () => {
    // m29-golf-vr6-legacy.xdf is the older text format, not XML.
    const files = readdirSync(DEFINITIONS).filter((name) => name.endsWith(".xdf") && !name.includes("legacy"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const name of files)
      expect(() => parseXml(readFileSync(new URL(name, DEFINITIONS), "latin1")), name).not.toThrow();
  });
});
