/** definitionOfFiles: what is imported from the files an admin chooses together. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { definitionOfFiles, importDefinition, isA2l } from "../../../../domain/tune/definition-import";
import { decodeDefinitionFile } from "../../../../domain/tune/definition-text";

const NEW_FORMATS = new URL("../../../../../shared/fixtures/new-formats/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, NEW_FORMATS), "utf8");

describe("isA2l", () => {
  it("knows an A2L by ASAP2_VERSION or /begin PROJECT at its start, after comments", () => {
    // Both example files open with "ASAP2_VERSION 1 61" (their first line, read with head -1).
    expect(isA2l(fixture("engine-ecu.a2l"))).toBe(true);
    expect(isA2l(fixture("asap2-demo-v161.a2l"))).toBe(true);
    expect(isA2l('/* made by hand */\n// a line comment\n/begin PROJECT P ""\n/end PROJECT\n')).toBe(true);
    expect(isA2l("\uFEFF  ASAP2_VERSION 1 71\n")).toBe(true);
  });

  it("does not take XML or a file that only mentions the keywords later for an A2L", () => {
    expect(isA2l(fixture("ecuflash-subaru-A2WC400K.xml"))).toBe(false);
    expect(isA2l("<XDFFORMAT><!-- ASAP2_VERSION --></XDFFORMAT>")).toBe(false);
    expect(isA2l("PROJECT\n/begin PROJECT P")).toBe(false);
  });
});

describe("definitionOfFiles", () => {
  it("passes an A2L's other files as its includes by file name, not combined", () => {
    const a2l = 'ASAP2_VERSION 1 61\n/begin PROJECT P ""\n/include "part.a2l"\n/end PROJECT\n';
    const part = '/begin COMPU_METHOD CM "" IDENTICAL "%6.2" "" /end COMPU_METHOD\n';
    expect(
      definitionOfFiles([
        { name: "main.a2l", text: a2l },
        { name: "part.a2l", text: part },
      ]),
    ).toEqual({ text: a2l, includes: { "part.a2l": part } });
  });

  it("combines a rom and its base into one <roms> document, and answers one file as it is", () => {
    const rom = "<rom><romid><xmlid>R</xmlid></romid><include>B</include></rom>";
    const base = '<?xml version="1.0"?><rom><romid><xmlid>B</xmlid></romid></rom>';
    expect(definitionOfFiles([{ name: "r.xml", text: rom }])).toEqual({ text: rom });
    const both = definitionOfFiles([
      { name: "r.xml", text: rom },
      { name: "b.xml", text: base },
    ]);
    expect(both).toEqual({ text: `<roms>\n${rom}\n<rom><romid><xmlid>B</xmlid></romid></rom>\n</roms>\n` });
  });

  it("refuses an XDF chosen with other files, naming which file is not a rom", () => {
    expect(() =>
      definitionOfFiles([
        { name: "a.xdf", text: "<XDFFORMAT/>" },
        { name: "b.xdf", text: "<XDFFORMAT/>" },
      ]),
    ).toThrow("file 1 is not a RomRaider/EcuFlash definition");
  });
});

describe("TunerPro binary XDF", () => {
  it("is refused by name, saying what to do, however its bytes were decoded", () => {
    // The sample's first bytes, read with xxd: 05 22 97 00.
    const bytes = new Uint8Array(readFileSync(new URL("tunerpro-binary-gm-p01-12202088.xdf", NEW_FORMATS)));
    expect([...bytes.subarray(0, 4)]).toEqual([0x05, 0x22, 0x97, 0x00]);
    const message = "a TunerPro binary XDF: open it in TunerPro and save it as XML, then import that file";
    const { text } = decodeDefinitionFile(bytes);
    expect(() => importDefinition(text, { firmwareId: "P01" })).toThrow(message);
    expect(() => importDefinition(new TextDecoder().decode(bytes), { firmwareId: "P01" })).toThrow(message);
  });
});
