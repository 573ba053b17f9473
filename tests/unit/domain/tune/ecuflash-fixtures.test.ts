/**
 * A real EcuFlash rom (Subaru A2WC400K) imported with the base it includes (32BITBASE), each kept
 * in its own file as EcuFlash keeps them. The rom refers to its tables' inherited axes as `X` and
 * `Y` (`<table name="Y" address="c0464"/>`); the base gives those axes their names, elements and
 * scalings. Values read off the files by eye:
 * - A2WC400K line 22: "Target Boost Compensation (ECT)" at c051e, its Y at c0464.
 * - 32BITBASE line 1330: that table is a 2D with scaling TargetBoostCompensation(%); line 1331 its
 *   axis "Coolant Temperature", type="Y Axis", elements="16", scaling="DegreesC".
 * - 32BITBASE line 52: DegreesC is units "Degrees C", toexpr "x", format "%.0f", float, big endian;
 *   line 111: TargetBoostCompensation(%) is toexpr "(x*.78125)-100", format "%.1f", uint8.
 * Before the shorthand was read, 233 tables imported and 58 were skipped as "its size is not given"
 * (291 tables with an address in the rom); now all 291 import and only the checksum module is skipped.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { combineDefinitionFiles, importDefinition } from "../../../../domain/tune/definition-import";

const NEW_FORMATS = new URL("../../../../../shared/fixtures/new-formats/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, NEW_FORMATS), "utf8");
const imported = () =>
  importDefinition(
    combineDefinitionFiles([fixture("ecuflash-subaru-A2WC400K.xml"), fixture("ecuflash-subaru-32BITBASE.xml")]),
    { firmwareId: "A2WC400K", imageSize: 0x100000 },
  );

describe("EcuFlash rom with its base in another file", () => {
  it("reads an axis the rom calls Y as the base's Y axis, with the base's elements and scaling", () => {
    const table = imported().definition.items.find((item) => item.title === "Target Boost Compensation (ECT)");
    expect(table).toMatchObject({
      kind: "table1d",
      z: { address: 0xc051e, bits: 8, signed: false, toPhysical: "(X*.78125)-100", decimals: 1, cols: 16 },
      x: {
        address: 0xc0464,
        count: 16,
        float: true,
        endian: "big",
        toPhysical: "X",
        unit: "Degrees C",
        decimals: 0,
      },
    });
  });

  it("keeps every table with an address: none skipped for want of a size", () => {
    const result = imported();
    expect(result.summary.items).toBe(291);
    expect(result.summary.skippedReasons).toEqual([
      { reason: "not supported: EcuFlash checksum module subarudbw", count: 1 },
    ]);
  });

  it("reads a 3-D table's X and Y by the base's axes, the rom's elements overriding", () => {
    // A2WC400K line 19: "Target Boost" at c09f8, X at c09a4, Y at c09c4 with elements="13"; 32BITBASE line
    // 1276: its X Axis has elements="8", line 1277 its Y Axis elements="12", which the rom overrides.
    const table = imported().definition.items.find((item) => item.title === "Target Boost");
    expect(table).toMatchObject({
      kind: "table2d",
      x: { address: 0xc09a4, count: 8 },
      y: { address: 0xc09c4, count: 13 },
    });
  });
});
