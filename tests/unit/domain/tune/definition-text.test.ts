/**
 * decodeDefinitionFile: a definition file's bytes read in the file's own encoding. The bytes are
 * written out here (a `°` is B0 in Windows-1252 and ISO-8859-1, C2 B0 in UTF-8, B0 00 in UTF-16LE),
 * so the test does not depend on any encoder of ours.
 */
import { describe, expect, it } from "vitest";
import { decodeDefinitionFile } from "../../../../domain/tune/definition-text";

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const bytes = (...parts: Array<string | ArrayLike<number>>) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? ascii(part) : Array.from(part))));
const UNITS = (degree: number[]) => bytes("<XDFFORMAT><units>", degree, "C</units></XDFFORMAT>");

describe("decodeDefinitionFile", () => {
  it("reads a file that declares windows-1252 in it: the single byte B0 arrives as °", () => {
    const file = bytes('<?xml version="1.0" encoding="windows-1252"?>\n', UNITS([0xb0]));
    expect(decodeDefinitionFile(file)).toEqual({
      text: '<?xml version="1.0" encoding="windows-1252"?>\n<XDFFORMAT><units>°C</units></XDFFORMAT>',
      encoding: "windows-1252",
    });
  });

  it("reads ISO-8859-1 as declared, quotes single or double, and the Windows-1252 characters it lacks too", () => {
    // 0x80 is € in Windows-1252 (the WHATWG reading of an ISO-8859-1 label); B5 is µ in both.
    const file = bytes("<?xml version='1.0' encoding='ISO-8859-1'?>", "<units>", [0xb5, 0x73, 0x80], "</units>");
    const decoded = decodeDefinitionFile(file);
    expect(decoded.text).toBe("<?xml version='1.0' encoding='ISO-8859-1'?><units>µs€</units>");
    expect(decoded.encoding).toBe("windows-1252");
  });

  it("takes an undeclared file whose bytes are not UTF-8 for Windows-1252", () => {
    expect(decodeDefinitionFile(UNITS([0xb0]))).toEqual({
      text: "<XDFFORMAT><units>°C</units></XDFFORMAT>",
      encoding: "windows-1252",
    });
  });

  it("reads UTF-8, marked or not, and a file that declares UTF-8 but is not as what its bytes are", () => {
    expect(decodeDefinitionFile(UNITS([0xc2, 0xb0])).text).toBe("<XDFFORMAT><units>°C</units></XDFFORMAT>");
    const marked = decodeDefinitionFile(bytes([0xef, 0xbb, 0xbf], UNITS([0xc2, 0xb0])));
    expect(marked).toEqual({ text: "<XDFFORMAT><units>°C</units></XDFFORMAT>", encoding: "utf-8" });
    const lying = decodeDefinitionFile(bytes('<?xml version="1.0" encoding="utf-8"?>', UNITS([0xb0])));
    expect(lying.encoding).toBe("windows-1252");
    expect(lying.text).toContain("<units>°C</units>");
  });

  it("reads UTF-16 by its byte order mark, little and big endian", () => {
    const text = '<?xml version="1.0" encoding="utf-16"?><units>°C</units>';
    const le = [0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])];
    const be = [0xfe, 0xff, ...[...text].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 0xff])];
    expect(decodeDefinitionFile(Uint8Array.from(le))).toEqual({ text, encoding: "utf-16le" });
    expect(decodeDefinitionFile(Uint8Array.from(be))).toEqual({ text, encoding: "utf-16be" });
  });

  it("refuses a declared encoding it cannot read, naming it", () => {
    expect(() => decodeDefinitionFile(bytes('<?xml version="1.0" encoding="x-klingon"?><a/>'))).toThrow(
      'the file declares the encoding "x-klingon", which is not one we can read: save it as UTF-8 or Windows-1252',
    );
  });
});
