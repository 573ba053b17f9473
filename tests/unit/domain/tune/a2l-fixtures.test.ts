/**
 * The two public A2L examples in ../shared/fixtures/new-formats, imported
 * whole. Every expected value was read off the A2L text by hand (the lines are
 * quoted), and the counts with `grep -c "/begin CHARACTERISTIC"` (50 in the
 * ASAM demo, 2 in engine-ecu) and `grep -c "/begin AXIS_PTS"` (2 and 0). The
 * demo's data segment is `DATA FLASH EXTERN 0x810000 0x10000`, so a 64 KiB
 * image at address offset 0x810000 holds it; values are read through the
 * imported definition from an image whose bytes this test writes itself.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../contracts/tune-definition";
import { checkedTuneDefinitionSchema } from "../../../../domain/tune/checked-schemas";
import { importDefinition } from "../../../../domain/tune/definition-import";
import { readItem } from "../../../../domain/tune/maps";

const FIXTURES = new URL("../../../../../shared/fixtures/new-formats/", import.meta.url);
const a2lFile = (name: string) => readFileSync(new URL(name, FIXTURES), "latin1");
const OFFSET = 0x810000;

const demo = () =>
  importDefinition(a2lFile("asap2-demo-v161.a2l"), { firmwareId: "DEMO", imageSize: 0x10000, addressOffset: OFFSET });
const item = (items: TuneItem[], id: string) => {
  const found = items.find((i) => i.id === id);
  if (!found) throw new Error(`no item ${id}; items are ${items.map((i) => i.id).join(", ")}`);
  return found;
};

describe("the ASAM demo A2L (asap2-demo-v161.a2l)", () => {
  it("accounts for every CHARACTERISTIC and AXIS_PTS: imported or skipped with a reason, and the definition passes the contract", () => {
    const result = demo();
    expect(result.format).toBe("a2l");
    const characteristics = result.skipped.filter((s) => s.element === "CHARACTERISTIC").length;
    const axisPts = result.skipped.filter((s) => s.element === "AXIS_PTS").length;
    expect(result.definition.items.length + characteristics + axisPts).toBe(50 + 2);
    expect(result.summary.items).toBe(35);
    expect(checkedTuneDefinitionSchema.safeParse(result.definition).success).toBe(true);
    // "ASAM.C.VIRTUAL.REF_1.SWORD … /begin VIRTUAL_CHARACTERISTIC": five of them, not in ECU memory.
    expect(result.skipped.filter((s) => s.reason.startsWith("a virtual characteristic")).map((s) => s.title)).toEqual([
      "ASAM.C.VIRTUAL.REF_1.SWORD",
      "ASAM.C.VIRTUAL.REF_2.UWORD",
      "ASAM.C.VIRTUAL.REF_3.SWORD",
      "ASAM.C.VIRTUAL.SYSTEM_CONSTANT_1",
      "ASAM.C.VIRTUAL.ASCII",
    ]);
    // "/begin CHARACTERISTIC ASAM.C.CURVE.STD_AXIS … RL.CURVE.SWORD.SBYTE.DECR" with "AXIS_PTS_X 2 SBYTE INDEX_DECR DIRECT".
    expect(result.skipped.find((s) => s.title === "ASAM.C.CURVE.STD_AXIS")).toMatchObject({
      line: 3321,
      reason: expect.stringContaining("AXIS_PTS_X stored INDEX_DECR"),
    });
    expect(result.skipped.find((s) => s.title === "ASAM.C.CUBOID.COM_AXIS.FIX_AXIS.STD_AXIS")?.reason).toContain(
      "more than two axes",
    );
    expect(result.skipped.find((s) => s.title === "ASAM.C.SCALAR.FLOAT64_IEEE.IDENTICAL")?.reason).toContain(
      "FLOAT64_IEEE is not supported",
    );
  });

  it("places a map's record as its layout says: counts, axis points, then values aligned to a word", () => {
    // "ASAM.C.MAP.STD_AXIS.STD_AXIS … MAP 0x810400 RL.MAP.SWORD.SBYTE.SBYTE.INCR", axes of 4 and 5 points;
    // "NO_AXIS_PTS_X 1 UBYTE / NO_AXIS_PTS_Y 2 UBYTE / AXIS_PTS_X 3 SBYTE / AXIS_PTS_Y 4 SBYTE / FNC_VALUES 5 SWORD ROW_DIR",
    // MOD_COMMON "BYTE_ORDER MSB_LAST", "ALIGNMENT_WORD 2": X points at 0x810402, Y at 0x810406..0x81040A, values at 0x81040C.
    const map = item(demo().definition.items, "ASAM.C.MAP.STD_AXIS.STD_AXIS");
    expect(map).toMatchObject({
      kind: "table2d",
      z: { address: 0x40c, bits: 16, signed: true, endian: "little", rows: 5, cols: 4, columnMajor: false },
      x: { address: 0x402, bits: 8, signed: true, count: 4 },
    });
    // Its Y axis has "CM.TAB_VERB.NO_DEFAULT_VALUE": verbal points read from the image cannot be one of our axes.
    expect(map.kind === "table2d" && map.y).toBeUndefined();
  });

  it("reads fixed axes from FIX_AXIS_PAR_DIST and FIX_AXIS_PAR_LIST", () => {
    const { items } = demo().definition;
    // "FIX_AXIS_PAR_DIST 1 1 6": 1, 2 … 6; "FIX_AXIS_PAR_DIST 0 4 6": 0, 4 … 20; "FIX_AXIS_PAR_LIST -1 4 6 8 9 10".
    const labels = (id: string) => {
      const curve = item(items, id);
      return curve.kind === "table1d" && curve.x && "labels" in curve.x ? curve.x.labels : undefined;
    };
    expect(labels("ASAM.C.CURVE.FIX_AXIS.PAR_DIST")).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(labels("ASAM.C.CURVE.FIX_AXIS.PAR")).toEqual(["0", "4", "8", "12", "16", "20"]);
    expect(labels("ASAM.C.CURVE.FIX_AXIS.PAR_LIST")).toEqual(["-1", "4", "6", "8", "9", "10"]);
    expect(item(items, "ASAM.C.CURVE.FIX_AXIS.PAR_LIST").z).toMatchObject({ address: 0x370, rows: 1, cols: 6 });
  });

  it("reads a VAL_BLK's MATRIX_DIM as columns then rows, in the FNC_VALUES direction", () => {
    const { items } = demo().definition;
    // "ASAM.C.ARRAY.SWORD.MATRIX_DIM_3_4.COLUMN_DIR … 0x810120 RL.FNC.SWORD.COLUMN_DIR … MATRIX_DIM 3 4 1".
    expect(item(items, "ASAM.C.ARRAY.SWORD.MATRIX_DIM_3_4.COLUMN_DIR").z).toMatchObject({
      address: 0x120,
      rows: 4,
      cols: 3,
      columnMajor: true,
    });
    expect(item(items, "ASAM.C.ARRAY.SWORD.MATRIX_DIM_6.ROW_DIR")).toMatchObject({ kind: "table1d", z: { cols: 6 } });
    // "ASAM.C.ASCII.UBYTE.NUMBER_42 … ASCII 0x810200 … NUMBER 42".
    expect(item(items, "ASAM.C.ASCII.UBYTE.NUMBER_42").z).toMatchObject({ address: 0x200, bits: 8, cols: 42 });
  });

  it("converts the SWORD at 0x810004 through each of the file's COMPU_METHODs", () => {
    const { items } = demo().definition;
    const image = new Uint8Array(0x10000);
    const at = (raw: number) => {
      new DataView(image.buffer).setInt16(4, raw, true);
      return (id: string) => readItem(image, item(items, id)).values[0];
    };
    // "CM.LINEAR.MUL_2 … COEFFS_LINEAR 2 0"; "CM.RAT_FUNC.DIV_10 … COEFFS 0 10 0 0 0 1": raw = 10·phys.
    expect(at(250)("ASAM.C.SCALAR.SWORD.LINEAR_MUL_2")).toBe(500);
    expect(at(250)("ASAM.C.SCALAR.SWORD.RAT_FUNC_DIV_10")).toBe(25);
    // "CM.FORM.X_PLUS_4 … "X1+4"".
    expect(at(6)("ASAM.C.SCALAR.SWORD.FORM_X_PLUS_4")).toBe(10);
    // TAB_INTP pairs "2 102", "4 104", "10 110", "13 111", "DEFAULT_VALUE_NUMERIC 300.56".
    expect(at(3)("ASAM.C.SCALAR.SWORD.TAB_INTP_DEFAULT_VALUE")).toBe(103);
    expect(at(11)("ASAM.C.SCALAR.SWORD.TAB_INTP_DEFAULT_VALUE")).toBeCloseTo(110 + 1 / 3, 9);
    expect(at(20)("ASAM.C.SCALAR.SWORD.TAB_INTP_DEFAULT_VALUE")).toBe(300.56);
    expect(at(20)("ASAM.C.SCALAR.SWORD.TAB_INTP_NO_DEFAULT_VALUE")).toBeNaN();
    // The TAB_NOINTP tables: raw 3 is not a pair, raw 4 is.
    expect(at(3)("ASAM.C.SCALAR.SWORD.TAB_NOINTP_DEFAULT_VALUE")).toBe(300.56);
    expect(at(4)("ASAM.C.SCALAR.SWORD.TAB_NOINTP_NO_DEFAULT_VALUE")).toBe(104);
    expect(at(3)("ASAM.C.SCALAR.SWORD.TAB_NOINTP_NO_DEFAULT_VALUE")).toBeNaN();
  });

  it("turns verbal conversions into enums, ranges spelt out", () => {
    const { items } = demo().definition;
    // "1 "SawTooth" 2 "Square" 3 "Sinus"".
    expect(item(items, "ASAM.C.SCALAR.SWORD.TAB_VERB_DEFAULT_VALUE")).toMatchObject({
      kind: "enum",
      values: [
        { raw: 1, label: "SawTooth" },
        { raw: 2, label: "Square" },
        { raw: 3, label: "Sinus" },
      ],
    });
    // "0 1 … 4 7 "four_to_seven" 14 17 … 18 99 … 100 100 … 105 105": 8 + 92 raw values.
    const range = item(items, "ASAM.C.SCALAR.SWORD.VTAB_RANGE_NO_DEFAULT_VALUE");
    expect(range.kind === "enum" && range.values.length).toBe(100);
    expect(range.kind === "enum" && range.values.find((v) => v.raw === 5)?.label).toBe("four_to_seven");
    // "BIT_MASK 0x0001" on a UWORD: a flag; "BIT_MASK 0x0FF0": several bits, skipped.
    expect(item(items, "ASAM.C.SCALAR.UWORD.IDENTICAL.BITMASK_0001")).toMatchObject({ kind: "flag", mask: 1 });
  });

  it("reads a curve's point count from the stock image when its record stores one", () => {
    // "ASAM.C.CURVE_AXIS … CURVE 0x810390 RL.CURVE.SWORD.SBYTE.INCR", 8 points at most:
    // "NO_AXIS_PTS_X 1 UBYTE / AXIS_PTS_X 2 SBYTE INDEX_INCR / FNC_VALUES 3 SWORD": with 3 points stored,
    // the points are at 0x810391..93 and the values start at the next even address, 0x810394.
    const stock = new Uint8Array(0x10000);
    stock[0x390] = 3;
    stock.set([0xf6, 0x00, 0x0a], 0x391);
    new DataView(stock.buffer).setInt16(0x394, -7, true);
    new DataView(stock.buffer).setInt16(0x396, 0, true);
    new DataView(stock.buffer).setInt16(0x398, 300, true);
    const { definition } = importDefinition(a2lFile("asap2-demo-v161.a2l"), {
      firmwareId: "DEMO",
      imageSize: 0x10000,
      addressOffset: OFFSET,
      stockImage: stock,
    });
    const curve = readItem(stock, item(definition.items, "ASAM.C.CURVE_AXIS"));
    expect(curve.values).toEqual([-7, 0, 300]);
    expect(curve.x).toMatchObject({ values: [-10, 0, 10] });
  });

  it("skips what lies outside the image, naming the ECU address, when no offset is given", () => {
    const result = importDefinition(a2lFile("asap2-demo-v161.a2l"), { firmwareId: "DEMO", imageSize: 0x10000 });
    expect(result.definition.items).toEqual([]);
    expect(result.skipped.find((s) => s.title === "ASAM.C.SCALAR.UBYTE.IDENTICAL")?.reason).toBe(
      "its value at ECU address 0x810000 (file offset 0x810000, 1 byte) lies outside the image of 0x10000 bytes; give the address offset of the image",
    );
  });
});

describe("the ASAM specification's example (engine-ecu.a2l)", () => {
  it("reports the missing include by name and skips both characteristics with their reasons", () => {
    const result = importDefinition(a2lFile("engine-ecu.a2l"), { firmwareId: "ENGINE", imageSize: 0x8000 });
    expect(result.definition.items).toEqual([]);
    expect(result.skipped.map((s) => [s.element, s.title, s.line])).toEqual([
      // '/include "supp1_if.aml"' on line 7.
      ["/include", "supp1_if.aml", 7],
      // "KI … VALUE 0x0408 DAMOS_FW 5.0 FACTOR01" with "FACTOR01 … RAT_FUNC … COEFFS 0.0 1.0 0.0 0.0 1.0 0.0":
      // raw = x / x, the same for every physical value.
      ["CHARACTERISTIC", "KI", 56],
      // "PUMCD … MAP 0x7140 DAMOS_KF" has one "/begin AXIS_DESCR" where a map has two.
      ["CHARACTERISTIC", "PUMCD", 75],
    ]);
    expect(result.skipped[1].reason).toContain(
      "RAT_FUNC 0 1 0 0 1 0 gives the same raw value for every physical value",
    );
    expect(result.skipped[2].reason).toBe("a MAP needs 2 AXIS_DESCR, it has 1");
  });

  it("reads the include when it is uploaded with the A2L", () => {
    const result = importDefinition(a2lFile("engine-ecu.a2l"), {
      firmwareId: "ENGINE",
      imageSize: 0x8000,
      includes: { "supp1_if.aml": "/* interface description */" },
    });
    expect(result.skipped.map((s) => s.title)).toEqual(["KI", "PUMCD"]);
  });
});
