/**
 * Each A2L rule on a small document written here: conversions, layouts,
 * byte orders, alignment, includes, the address offset, and the refusals
 * that name a line. Values are read through the imported definition from an
 * image whose bytes the test sets.
 */
import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../contracts/tune-definition";
import { isA2l, readBlocks } from "../../../../domain/tune/a2l/blocks";
import { importDefinition } from "../../../../domain/tune/definition-import";
import { TuneError } from "../../../../domain/tune/errors";
import { readItem } from "../../../../domain/tune/maps";

const SIZE = 0x100;

function a2l(body: string, modCommon = "BYTE_ORDER MSB_FIRST"): string {
  return `ASAP2_VERSION 1 61
/begin PROJECT P ""
  /begin MODULE M ""
    /begin MOD_COMMON "" ${modCommon} /end MOD_COMMON
    /begin RECORD_LAYOUT UB FNC_VALUES 1 UBYTE ROW_DIR DIRECT /end RECORD_LAYOUT
    /begin RECORD_LAYOUT UW FNC_VALUES 1 UWORD ROW_DIR DIRECT /end RECORD_LAYOUT
    /begin RECORD_LAYOUT SW FNC_VALUES 1 SWORD ROW_DIR DIRECT /end RECORD_LAYOUT
    /begin COMPU_METHOD ID "" IDENTICAL "%5.0" "" /end COMPU_METHOD
${body}
  /end MODULE
/end PROJECT
`;
}

const value = (name: string, address: number, layout: string, method: string, extra = "") =>
  `/begin CHARACTERISTIC ${name} "" VALUE ${address} ${layout} 0 ${method} -100000 100000 ${extra} /end CHARACTERISTIC`;

function imported(
  text: string,
  options: { addressOffset?: number; includes?: Record<string, string>; stock?: Uint8Array } = {},
) {
  return importDefinition(text, {
    firmwareId: "T",
    imageSize: SIZE,
    ...(options.addressOffset !== undefined && { addressOffset: options.addressOffset }),
    ...(options.includes && { includes: options.includes }),
    ...(options.stock && { stockImage: options.stock }),
  });
}

function only(text: string, options?: Parameters<typeof imported>[1]): TuneItem {
  const result = imported(text, options);
  expect(result.skipped, JSON.stringify(result.skipped)).toEqual([]);
  return result.definition.items[0];
}

const reasonOf = (text: string) => imported(text).skipped[0]?.reason;

function refusal(text: string): string {
  try {
    readBlocks(text);
  } catch (error) {
    if (error instanceof TuneError) return error.message;
    throw error;
  }
  throw new Error("not refused");
}

describe("A2L conversions", () => {
  const image = new Uint8Array(SIZE);
  image.set([0x00, 0x64], 0x10);
  const at10 = (method: string, methods: string) =>
    readItem(image, only(a2l(`${methods}\n${value("V", 0x10, "UW", method)}`))).values[0];

  it("reads LINEAR as physical = a·raw + b", () => {
    expect(at10("L", `/begin COMPU_METHOD L "" LINEAR "%4.1" "kPa" COEFFS_LINEAR 0.5 -10 /end COMPU_METHOD`)).toBe(40);
  });

  it("reads RAT_FUNC as the inverse of raw = (b·p + c) / (e·p + f), and writes back through the function itself", () => {
    // raw = (2p + 4) / (0p + 1): p = (raw − 4) / 2 = 48 for raw 100.
    expect(at10("R", `/begin COMPU_METHOD R "" RAT_FUNC "%4.1" "" COEFFS 0 2 4 0 0 1 /end COMPU_METHOD`)).toBe(48);
    // raw = (p + 0) / (0.01p + 1): p = −100·raw / (raw − 100)… for raw 100 no value; take raw 50: p = 100.
    const item = only(
      a2l(
        `/begin COMPU_METHOD R "" RAT_FUNC "" "" COEFFS 0 1 0 0 0.01 1 /end COMPU_METHOD\n${value("V", 0x10, "UW", "R")}`,
      ),
    );
    const image50 = new Uint8Array(SIZE);
    image50[0x11] = 50;
    expect(readItem(image50, item).values[0]).toBeCloseTo(100, 9);
    expect(item.z.toRaw).toBeDefined();
  });

  it("skips a RAT_FUNC that cannot be inverted, and one with squares", () => {
    expect(
      reasonOf(
        a2l(
          `/begin COMPU_METHOD R "" RAT_FUNC "" "" COEFFS 0 255 0 0 5000 0 /end COMPU_METHOD\n${value("V", 0x10, "UW", "R")}`,
        ),
      ),
    ).toContain("gives the same raw value for every physical value");
    expect(
      reasonOf(
        a2l(
          `/begin COMPU_METHOD R "" RAT_FUNC "" "" COEFFS 1 0 0 0 0 1 /end COMPU_METHOD\n${value("V", 0x10, "UW", "R")}`,
        ),
      ),
    ).toContain("squared terms");
  });

  it("reads FORM with X1 and its FORMULA_INV, and refuses operators our evaluator does not have", () => {
    const form = `/begin COMPU_METHOD F "" FORM "%4.1" "" /begin FORMULA "sqrt(X1) * 2" FORMULA_INV "pow(X1 / 2, 2)" /end FORMULA /end COMPU_METHOD`;
    expect(at10("F", form)).toBe(20);
    const xor = `/begin COMPU_METHOD F "" FORM "" "" /begin FORMULA "X1 ^ 3" /end FORMULA /end COMPU_METHOD`;
    expect(reasonOf(a2l(`${xor}\n${value("V", 0x10, "UW", "F")}`))).toContain("the operator ^ is not supported");
    const sysc = `/begin COMPU_METHOD F "" FORM "" "" /begin FORMULA "X1 + sysc(K)" /end FORMULA /end COMPU_METHOD`;
    expect(reasonOf(a2l(`${sysc}\n${value("V", 0x10, "UW", "F")}`))).toContain("sysc is not supported");
  });

  it("interpolates TAB_INTP and writes back through its inverse when the table rises", () => {
    const tab = `/begin COMPU_METHOD T "" TAB_INTP "%4.2" "V" COMPU_TAB_REF TT /end COMPU_METHOD
      /begin COMPU_TAB TT "" TAB_INTP 3 0 0.0 100 5.0 200 6.0 /end COMPU_TAB`;
    const item = only(a2l(`${tab}\n${value("V", 0x10, "UW", "T")}`));
    const img = new Uint8Array(SIZE);
    img[0x11] = 150;
    expect(readItem(img, item).values[0]).toBeCloseTo(5.5, 9);
    expect(item.z.unit).toBe("V");
    expect(item.z.toRaw).toBeDefined();
  });

  it("names a COMPU_METHOD the file does not have", () => {
    expect(reasonOf(a2l(value("V", 0x10, "UW", "NOPE")))).toBe("its COMPU_METHOD NOPE is not in the file");
  });
});

describe("A2L byte order and alignment", () => {
  const image = new Uint8Array(SIZE);
  image.set([0x12, 0x34], 0x20);
  const read = (text: string) => readItem(image, only(text)).values[0];

  it("reads MSB_FIRST big endian and MSB_LAST little endian, an item's own BYTE_ORDER over MOD_COMMON's", () => {
    expect(read(a2l(value("V", 0x20, "UW", "ID"), "BYTE_ORDER MSB_FIRST"))).toBe(0x1234);
    expect(read(a2l(value("V", 0x20, "UW", "ID"), "BYTE_ORDER MSB_LAST"))).toBe(0x3412);
    expect(read(a2l(value("V", 0x20, "UW", "ID", "BYTE_ORDER MSB_FIRST"), "BYTE_ORDER MSB_LAST"))).toBe(0x1234);
  });

  it("reads the deprecated names as the standard defines them: BIG_ENDIAN is MSB_LAST, LITTLE_ENDIAN is MSB_FIRST", () => {
    expect(read(a2l(value("V", 0x20, "UW", "ID"), "BYTE_ORDER BIG_ENDIAN"))).toBe(0x3412);
    expect(read(a2l(value("V", 0x20, "UW", "ID"), "BYTE_ORDER LITTLE_ENDIAN"))).toBe(0x1234);
  });

  it("places values after a byte at the next word unless ALIGNMENT_WORD says 1", () => {
    const curve = `/begin RECORD_LAYOUT C NO_AXIS_PTS_X 1 UBYTE AXIS_PTS_X 2 UBYTE INDEX_INCR DIRECT FNC_VALUES 3 UWORD ROW_DIR DIRECT /end RECORD_LAYOUT
      /begin CHARACTERISTIC K "" CURVE 0x40 C 0 ID 0 1000 /begin AXIS_DESCR STD_AXIS N ID 2 0 100 /end AXIS_DESCR /end CHARACTERISTIC`;
    // 0x40 count, 0x41..0x42 points, values at 0x43 → aligned to 0x44.
    expect(only(a2l(curve)).z.address).toBe(0x44);
    expect(only(a2l(curve, "BYTE_ORDER MSB_FIRST ALIGNMENT_WORD 1")).z.address).toBe(0x43);
  });

  it("skips a word-swapped byte order by name", () => {
    expect(reasonOf(a2l(value("V", 0x20, "UW", "ID", "BYTE_ORDER MSB_FIRST_MSW_LAST")))).toContain(
      "byte order MSB_FIRST_MSW_LAST is not supported",
    );
  });
});

describe("A2L maps and axes", () => {
  const layouts = `/begin RECORD_LAYOUT MAPC AXIS_PTS_X 1 UBYTE INDEX_INCR DIRECT AXIS_PTS_Y 2 UBYTE INDEX_INCR DIRECT FNC_VALUES 3 UBYTE COLUMN_DIR DIRECT /end RECORD_LAYOUT
    /begin RECORD_LAYOUT AX AXIS_PTS_X 1 UBYTE INDEX_INCR DIRECT /end RECORD_LAYOUT`;

  it("reads a COLUMN_DIR map with its standard axes, X across the columns", () => {
    const map = `/begin CHARACTERISTIC K "" MAP 0x80 MAPC 0 ID 0 255
      /begin AXIS_DESCR STD_AXIS N ID 3 0 255 /end AXIS_DESCR
      /begin AXIS_DESCR STD_AXIS L ID 2 0 255 /end AXIS_DESCR /end CHARACTERISTIC`;
    const image = new Uint8Array(SIZE);
    // X points 10 20 30, Y points 1 2, then column after column: (x10: y1, y2), (x20: …), (x30: …).
    image.set([10, 20, 30, 1, 2, 11, 12, 21, 22, 31, 32], 0x80);
    const values = readItem(image, only(a2l(`${layouts}\n${map}`)));
    expect(values).toMatchObject({ rows: 2, cols: 3, x: { values: [10, 20, 30] }, y: { values: [1, 2] } });
    expect(values.values).toEqual([11, 21, 31, 12, 22, 32]);
  });

  it("reads a COM_AXIS from the AXIS_PTS it names, which is an item of its own too", () => {
    const text = `${layouts}
      /begin COMPU_METHOD RPM "" LINEAR "%4.0" "rpm" COEFFS_LINEAR 50 0 /end COMPU_METHOD
      /begin AXIS_PTS SPEED "engine speed" 0x90 N AX 0 RPM 4 0 8000 /end AXIS_PTS
      /begin CHARACTERISTIC K "" CURVE 0xA0 UB 0 ID 0 255
        /begin AXIS_DESCR COM_AXIS N RPM 4 0 8000 AXIS_PTS_REF SPEED /end AXIS_DESCR /end CHARACTERISTIC`;
    const image = new Uint8Array(SIZE);
    image.set([10, 20, 40, 80], 0x90);
    image.set([1, 2, 3, 4], 0xa0);
    const result = imported(a2l(text));
    expect(result.definition.items.map((i) => i.id)).toEqual(["K", "SPEED"]);
    const curve = readItem(image, result.definition.items[0]);
    expect(curve).toMatchObject({ values: [1, 2, 3, 4], x: { values: [500, 1000, 2000, 4000], unit: "rpm" } });
    expect(result.definition.items[1]).toMatchObject({ kind: "table1d", description: "engine speed", z: { cols: 4 } });
  });

  it("maps ECU addresses to the image with the address offset, and skips what falls before it", () => {
    const text = a2l(`${value("A", 0x80001010, "UB", "ID")}\n${value("B", 0x10, "UB", "ID")}`);
    const result = imported(text, { addressOffset: 0x80001000 });
    expect(result.definition.items.map((i) => [i.id, i.z.address])).toEqual([["A", 0x10]]);
    expect(result.skipped[0]).toMatchObject({
      title: "B",
      reason: expect.stringContaining("ECU address 0x10 (file offset -0x80000FF0"),
    });
  });
});

describe("A2L categories", () => {
  it("puts an item in the FUNCTIONs that define it or that its FUNCTION_LIST names", () => {
    const text =
      a2l(`/begin FUNCTION IDLE "idle control" /begin DEF_CHARACTERISTIC V /end DEF_CHARACTERISTIC /end FUNCTION
      ${value("V", 0x10, "UB", "ID", "/begin FUNCTION_LIST FUEL /end FUNCTION_LIST")}`);
    const result = imported(text);
    expect(result.definition.categories).toEqual([
      { id: "IDLE", name: "IDLE" },
      { id: "FUEL", name: "FUEL" },
    ]);
    expect(result.definition.items[0]).toMatchObject({ category: "IDLE", categories: ["IDLE", "FUEL"] });
  });
});

describe("A2L includes and refusals", () => {
  it("splices an uploaded include in where it stands, matched by its base name", () => {
    const text = a2l(`/include "..\\\\common\\\\methods.a2l"\n${value("V", 0x10, "UB", "HALF")}`);
    const includes = {
      "methods.a2l": `/begin COMPU_METHOD HALF "" LINEAR "" "" COEFFS_LINEAR 0.5 0 /end COMPU_METHOD`,
    };
    const item = only(text, { includes });
    expect(item.z.toPhysical).toBe("0.5 * X");
  });

  it("names a missing include, even one asked for by another include", () => {
    const text = a2l(`/include "a.a2l"`);
    const result = imported(text, { includes: { "a.a2l": `/include "b.a2l"` } });
    expect(result.skipped).toEqual([
      expect.objectContaining({
        element: "/include",
        title: "b.a2l",
        reason: expect.stringContaining("(included by a.a2l)"),
      }),
    ]);
  });

  it("refuses a truncated block, naming the line it opens on", () => {
    expect(refusal(`ASAP2_VERSION 1 61\n/begin PROJECT P ""\n  /begin MODULE M ""\n`)).toBe(
      "line 3: /begin MODULE is not closed by /end MODULE before the file ends",
    );
  });

  it("refuses an /end that closes another block, and strings and comments left open", () => {
    expect(refusal(`/begin PROJECT P ""\n/begin MODULE M ""\n/end PROJECT`)).toBe(
      "line 3: /end PROJECT where /begin MODULE of line 2 is still open",
    );
    expect(refusal(`/begin PROJECT P "open\n\n`)).toBe("line 1: a string is not closed before the file ends");
    expect(refusal(`/begin PROJECT P ""\n/* open`)).toBe("line 2: a comment /* is not closed before the file ends");
  });

  it("reads strings with escaped quotes and passes the A2ML grammar over", () => {
    const { top } = readBlocks(
      `/begin PROJECT P "say \\"hi\\" ""twice"""\n/begin A2ML block "IF_DATA" { /end } ; /end A2ML /end PROJECT`,
    );
    const project = top[0];
    expect("content" in project && project.content.map((p) => ("text" in p ? p.text : p.name))).toEqual([
      "P",
      'say "hi" "twice"',
      "A2ML",
    ]);
  });

  it("tells an A2L by its content, comments before it", () => {
    expect(isA2l(`/* generated */\n// by a tool\n/begin PROJECT X ""`)).toBe(true);
    expect(isA2l("ASAP2_VERSION 1 71")).toBe(true);
    expect(isA2l("<XDFFORMAT>")).toBe(false);
    expect(imported(a2l(value("V", 0x10, "UB", "ID"))).format).toBe("a2l");
  });
});
