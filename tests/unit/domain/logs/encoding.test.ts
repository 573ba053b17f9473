import { describe, expect, it } from "vitest";
import { detectFormat, parseLog } from "../../../../domain/logs";

const content = "Time (s),Coolant (°C),Boost (psi)\n0.0,85.5,0.5\n0.1,85.6,0.75\n";

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const body = (bom ? "\uFEFF" : "") + text;
  const bytes = new Uint8Array(body.length * 2);
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    bytes[2 * i + (bigEndian ? 1 : 0)] = code & 0xff;
    bytes[2 * i + (bigEndian ? 0 : 1)] = code >> 8;
  }
  return bytes;
}

const cases: [string, Uint8Array, string][] = [
  ["UTF-8", new TextEncoder().encode(content), "utf-8"],
  ["UTF-8 with BOM", new TextEncoder().encode(`\uFEFF${content}`), "utf-8"],
  ["UTF-16 LE with BOM", utf16(content, false, true), "utf-16le"],
  ["UTF-16 BE with BOM", utf16(content, true, true), "utf-16be"],
  ["UTF-16 LE without BOM", utf16(content, false, false), "utf-16le"],
  ["latin1", Uint8Array.from(Buffer.from(content, "latin1")), "latin1"],
];

describe("text encodings", () => {
  for (const [label, bytes, encoding] of cases) {
    it(`${label}: detected and read to the same channels`, () => {
      expect(detectFormat(bytes).encoding).toBe(encoding);
      const log = parseLog(bytes);
      expect(log.channels.map((c) => [c.name, c.unit])).toEqual([
        ["Coolant", "°C"],
        ["Boost", "psi"],
      ]);
      expect(Array.from(log.columns[0])).toEqual([85.5, 85.6].map(Math.fround));
      expect(log.rowCount).toBe(2);
    });
  }

  it("a UTF-8 character split by the 64 KiB sniff window is still UTF-8", () => {
    const padding = `#${"x".repeat(65_534)}°\n`;
    const bytes = new TextEncoder().encode(padding + content);
    expect(bytes[65_535]).toBe(0xc2);
    expect(detectFormat(bytes).encoding).toBe("utf-8");
  });
});
