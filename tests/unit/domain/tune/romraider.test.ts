/**
 * RomRaider and EcuFlash definitions: hand-made files in the shapes the tools
 * write (modelled on RomRaider's Subaru definitions and its test files, and
 * on public EcuFlash Mitsubishi definitions: a base rom with the scalings and
 * table types, a rom that inherits it and gives the addresses), imported and
 * read back from an image made for them.
 */
import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../contracts/tune-definition";
import { checkedTuneDefinitionSchema } from "../../../../domain/tune/checked-schemas";
import { verifyAll } from "../../../../domain/tune/checksums";
import { combineDefinitionFiles, importDefinition } from "../../../../domain/tune/definition-import";
import { TuneError } from "../../../../domain/tune/errors";
import { readItem } from "../../../../domain/tune/maps";
import { convertExpression, decimalsOf, importRomRaider } from "../../../../domain/tune/romraider";
import { thrownBy } from "../../support/thrown";

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

/** An image with helpers to put values where a definition says they are. */
function image(size: number) {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  return {
    bytes,
    u8: (at: number, ...values: number[]) =>
      values.forEach((v, i) => {
        view.setUint8(at + i, v & 0xff);
      }),
    u16: (at: number, ...values: number[]) =>
      values.forEach((v, i) => {
        view.setUint16(at + 2 * i, v, false);
      }),
    f32: (at: number, ...values: number[]) =>
      values.forEach((v, i) => {
        view.setFloat32(at + 4 * i, v, false);
      }),
    text: (at: number, text: string) =>
      Array.from(text).forEach((c, i) => {
        bytes[at + i] = c.charCodeAt(0);
      }),
  };
}

const ROMRAIDER = `<?xml version="1.0" encoding="UTF-8"?>
<!-- RomRaider style: scalingbase, a base rom with the tables, a rom inheriting it with the addresses -->
<roms>
 <scalingbase name="rpm" units="RPM" expression="x" to_byte="x" format="#" fineincrement="50" coarseincrement="100" />
 <scalingbase category="Metric" name="BoostTarget_barabsolute" units="Boost Target (bar absolute)" expression="x*.001333224" to_byte="x/.001333224" format="#0.000" fineincrement=".01" coarseincrement=".1" />
 <rom>
  <romid>
   <xmlid>TESTBASE</xmlid>
   <make>Subaru</make>
   <filesize>64kb</filesize>
   <memmodel>SH7058</memmodel>
  </romid>
  <table type="3D" name="Target Boost A" category="Boost Control - Target" storagetype="uint16" endian="big" sizex="4" sizey="3" userlevel="1" logparam="E52">
   <scaling base="BoostTarget_barabsolute"/>
   <scaling category="Standard" units="Boost Target (psi relative sea level)" expression="(x-760)*.01933677" to_byte="(x/.01933677)+760" format="0.00" />
   <table type="X Axis" name="Throttle Plate Opening Angle" storagetype="float" endian="little" logparam="E38">
    <scaling units="%" expression="x/.84" to_byte="x*.84" format="0.0" fineincrement=".3" coarseincrement="1" />
   </table>
   <table type="Y Axis" name="Engine Speed" storagetype="float" endian="little" logparam="P8">
    <scaling base="rpm"/>
   </table>
   <description>This map contains the desired boost targets.</description>
  </table>
  <table base="Target Boost A" name="Target Boost B">
   <description>Inherited Target Boost A</description>
  </table>
  <table type="2D" name="A/F Learning #1 Airflow Ranges" category="Fueling - AF Correction / Learning" storagetype="float" endian="little" sizey="3" userlevel="4">
   <scaling units="Mass Airflow (g/s)" expression="x" to_byte="x" format="0.00" fineincrement=".1" coarseincrement="1" />
   <table type="Static Y Axis" name="A/F Learning Store/Apply Ranges" sizey="3">
    <data> Max Range A / Min Range B </data>
    <data> Max Range B / Min Range C </data>
    <data> Max Range C / Min Range D </data>
   </table>
  </table>
  <table type="2D" name="Injector Latency" category="Fueling - Injectors" storagetype="uint16" endian="big" sizey="4">
   <scaling units="ms" expression="x*.048" to_byte="x/.048" format="0.000" />
   <table type="Y Axis" name="Battery Voltage" storagetype="uint8">
    <scaling units="V" expression="x*.08" to_byte="x/.08" format="0.00" />
   </table>
  </table>
  <table type="1D" name="Rev Limit (Fuel Cut)" category="Rev Limit" storagetype="float" endian="big">
   <scaling units="RPM" expression="x" to_byte="x" format="#" />
  </table>
  <table type="1D" name="Coolant Offset" category="Sensors" storagetype="int8">
   <scaling units="C" expression="x-40" to_byte="x+40" format="#" />
  </table>
  <table type="Switch" name="Checksum Fix" category="Checksum Fix" sizey="4">
   <description>Turn off to disable all checksums.</description>
   <state name="on" data="00 00 00 00" />
   <state name="off" data="5a a5 a5 5a" />
  </table>
  <table type="Switch" name="CEL Switch" category="Diagnostics" sizey="3">
   <state name="on" data="01 02 03" />
   <state name="off" data="00 00 00" />
  </table>
  <table type="BitwiseSwitch" name="DTC Enable" category="Diagnostics" storagetype="uint8">
   <bit position="0" name="P0031" />
   <bit position="3" name="P0037" />
  </table>
  <table type="3D" name="Flipped Map" category="Other" storagetype="uint8" sizex="2" sizey="2" flipx="true">
   <table type="X Axis" storagetype="uint8" />
   <table type="Y Axis" storagetype="uint8" />
  </table>
  <table type="1D" name="Not In This Rom" storagetype="uint8"><scaling expression="x" /></table>
  <table type="1D" name="Bitwise Expression" storagetype="uint8"><scaling expression="BitWise(x, 1)" /></table>
  <table type="1D" name="Idle Speed Instruction" storagetype="movi20" />
 </rom>
 <rom base="TESTBASE">
  <romid>
   <xmlid>A2WC522S</xmlid>
   <internalidaddress>2000</internalidaddress>
   <internalidstring>A2WC522S</internalidstring>
   <ecuid>2F12795606</ecuid>
   <year>05</year>
   <market>USDM</market>
  </romid>
  <table name="Target Boost A" storageaddress="0x1000">
   <table type="X Axis" storageaddress="0x0F00" />
   <table type="Y Axis" storageaddress="0x0F10" />
  </table>
  <table name="Target Boost B" storageaddress="0x1100" sizey="2">
   <table type="X Axis" storageaddress="0x0F00" />
   <table type="Y Axis" storageaddress="0x0F10" />
  </table>
  <table name="A/F Learning #1 Airflow Ranges" storageaddress="0x1200" />
  <table name="Injector Latency" storageaddress="0x1300">
   <table type="Y Axis" storageaddress="0x1310" />
  </table>
  <table name="Rev Limit (Fuel Cut)" storageaddress="0x1400" />
  <table name="Coolant Offset" storageaddress="0x1404" />
  <table name="Checksum Fix" storageaddress="0x1500" />
  <table name="CEL Switch" storageaddress="0x1510" />
  <table name="DTC Enable" storageaddress="0x1520" />
  <table name="Flipped Map" storageaddress="0x1600">
   <table type="X Axis" storageaddress="0x1610" />
   <table type="Y Axis" storageaddress="0x1620" />
  </table>
  <table name="Bitwise Expression" storageaddress="0x1700" />
  <table name="Idle Speed Instruction" storageaddress="0x1704" />
  <table name="Missing Type" storageaddress="0x1708" />
  <checksum type="std" start="0x0" end="0x800" sumloc="0x800" xorloc="0x804" />
  <checksum type="alt2" start="0x0" end="0x800" />
 </rom>
</roms>
`;

/** The image the RomRaider sample describes, with the raw values the tests read back. */
function romRaiderImage() {
  const img = image(64 * 1024);
  img.text(0x2000, "A2WC522S");
  img.f32(0x0f00, 0, 21, 42, 84); // throttle x/.84: 0, 25, 50, 100 %
  img.f32(0x0f10, 2000, 4000, 6000); // rpm
  img.u16(0x1000, ...Array.from({ length: 12 }, (_, i) => 750 + 10 * i));
  img.u16(0x1100, ...Array.from({ length: 8 }, (_, i) => 1000 + i));
  img.f32(0x1200, 10.5, 20.25, 30); // big endian although the table says little (RomRaider reads floats so)
  img.u16(0x1300, 10, 20, 30, 40);
  img.u8(0x1310, 100, 125, 150, 175);
  img.f32(0x1400, 6700);
  img.u8(0x1404, -10);
  img.u8(0x1500, 0x5a, 0xa5, 0xa5, 0x5a);
  img.u8(0x1520, 0b1000);
  return img.bytes;
}

describe("RomRaider definition import", () => {
  const result = importRomRaider(ROMRAIDER, { firmwareId: "A2WC522S" });
  const byTitle = (title: string) => result.definition.items.find((i) => i.title === title) as TuneItem;
  const bytes = romRaiderImage();
  const read = (title: string) => readItem(bytes, byTitle(title));

  it("imports the rom that inherits the base, with every readable table, and passes the definition contract", () => {
    expect(result.format).toBe("romraider");
    expect(result.rom).toEqual({ xmlId: "A2WC522S", inherits: ["TESTBASE"] });
    expect(result.definition.imageSize).toBe(64 * 1024);
    expect(result.definition.items.map((i) => `${i.id} ${i.kind}`)).toEqual([
      "Target_Boost_A table2d",
      "Target_Boost_B table2d",
      "A_F_Learning_1_Airflow_Ranges table1d",
      "Injector_Latency table1d",
      "Rev_Limit_Fuel_Cut constant",
      "Coolant_Offset constant",
      "Checksum_Fix enum",
      "DTC_Enable_P0031 flag",
      "DTC_Enable_P0037 flag",
    ]);
    expect(result.definition.categories.map((c) => c.name)).toEqual([
      "Boost Control - Target",
      "Fueling - AF Correction / Learning",
      "Fueling - Injectors",
      "Rev Limit",
      "Sensors",
      "Checksum Fix",
      "Diagnostics",
    ]);
    expect(checkedTuneDefinitionSchema.safeParse(result.definition).success).toBe(true);
    expect(result.summary).toMatchObject({
      items: 9,
      byKind: { table2d: 2, table1d: 2, constant: 2, enum: 1, flag: 2 },
      patches: 0,
      checksums: 1,
      skipped: 6,
    });
  });

  it("skips each unreadable table and checksum with its name, line and reason", () => {
    expect(result.skipped.map(({ element, title, reason }) => ({ element, title, reason }))).toEqual([
      {
        element: "table",
        title: "CEL Switch",
        reason: "a switch over 3 bytes cannot be shown as one value (1, 2 or 4 bytes)",
      },
      {
        element: "table",
        title: "Flipped Map",
        reason: "flipx/flipy (cells stored in reverse order) is not supported on a 3D table",
      },
      {
        element: "table",
        title: "Bitwise Expression",
        reason: "scaling: expression \"BitWise(x, 1)\": Unknown function 'BitWise' at 0",
      },
      {
        element: "table",
        title: "Idle Speed Instruction",
        reason: "storagetype movi20 (a value inside an SH instruction) is not supported",
      },
      { element: "table", title: "Missing Type", reason: "no type" },
      { element: "checksum", title: "alt2", reason: "not supported: alt2 checksum" },
    ]);
    const lines = ROMRAIDER.split("\n");
    for (const s of result.skipped)
      expect(lines[s.line - 1], s.title).toContain(
        s.element === "checksum" ? `type="${s.title}"` : `name="${s.title}"`,
      );
    expect(result.warnings).toContain(
      `table "CEL Switch" on line ${result.skipped[0].line} skipped: a switch over 3 bytes cannot be shown as one value (1, 2 or 4 bytes)`,
    );
    expect(result.warnings).toContain(
      "1 table (inherited from TESTBASE) have no address for A2WC522S: not in this ROM, left out",
    );
  });

  it("maps a 3D table: sizes, the Metric scaling from a scalingbase, float axes read big endian, description", () => {
    expect(byTitle("Target Boost A")).toEqual({
      id: "Target_Boost_A",
      title: "Target Boost A",
      category: "boost_control_-_target",
      description: "This map contains the desired boost targets.",
      kind: "table2d",
      z: {
        address: 0x1000,
        bits: 16,
        signed: false,
        endian: "big",
        float: false,
        toPhysical: "X*.001333224",
        toRaw: "X/.001333224",
        unit: "Boost Target (bar absolute)",
        decimals: 3,
        rows: 3,
        cols: 4,
        columnMajor: false,
      },
      x: {
        address: 0xf00,
        bits: 32,
        signed: false,
        endian: "big",
        float: true,
        toPhysical: "X/.84",
        toRaw: "X*.84",
        unit: "%",
        decimals: 1,
        count: 4,
      },
      y: {
        address: 0xf10,
        bits: 32,
        signed: false,
        endian: "big",
        float: true,
        toPhysical: "X",
        toRaw: "X",
        unit: "RPM",
        decimals: 0,
        count: 3,
      },
    });
    const values = read("Target Boost A");
    expect(values.x).toEqual({ unit: "%", values: [0, 25, 50, 100] });
    expect(values.y).toEqual({ unit: "RPM", values: [2000, 4000, 6000] });
    expect(values.values[0]).toBeCloseTo(750 * 0.001333224, 9);
    expect(values.values[4 + 1]).toBeCloseTo(800 * 0.001333224, 9); // row 1, column 1: the 6th value stored
  });

  it("a table copied with base= takes the rom's own size and addresses", () => {
    const b = byTitle("Target Boost B");
    expect(b).toMatchObject({
      description: "Inherited Target Boost A",
      z: { address: 0x1100, rows: 2, cols: 4 },
      y: { count: 2 },
    });
    expect(read("Target Boost B").values).toHaveLength(8);
    expect(read("Target Boost B").values[7]).toBeCloseTo(1007 * 0.001333224, 9);
  });

  it("maps 2D tables over a static axis and over an axis read from the image", () => {
    expect(read("A/F Learning #1 Airflow Ranges")).toMatchObject({
      values: [10.5, 20.25, 30],
      x: { labels: ["Max Range A / Min Range B", "Max Range B / Min Range C", "Max Range C / Min Range D"] },
    });
    const latency = read("Injector Latency");
    expect(latency.values.map((v) => Number(v.toFixed(3)))).toEqual([0.48, 0.96, 1.44, 1.92]);
    expect(latency.x).toMatchObject({ unit: "V" });
    expect((latency.x as { values: number[] }).values.map((v) => Number(v.toFixed(2)))).toEqual([8, 10, 12, 14]);
  });

  it("maps 1D tables, a 4-byte switch as an enum and a bitwise switch as flags", () => {
    expect(read("Rev Limit (Fuel Cut)").values).toEqual([6700]);
    expect(read("Coolant Offset").values).toEqual([-50]);
    expect(byTitle("Checksum Fix")).toMatchObject({
      kind: "enum",
      description: "Turn off to disable all checksums.",
      values: [
        { raw: 0, label: "on" },
        { raw: 0x5aa5a55a, label: "off" },
      ],
    });
    expect(read("Checksum Fix").labels).toEqual(["off"]);
    expect(byTitle("DTC Enable: P0037")).toMatchObject({ kind: "flag", mask: 8, z: { address: 0x1520, bits: 8 } });
    expect(read("DTC Enable: P0031").values).toEqual([0]);
    expect(read("DTC Enable: P0037").values).toEqual([1]);
  });

  it("maps the Nissan-style std checksum to nissan-sum-xor, which verifies what RomRaider's calculation stores", () => {
    expect(result.checksums).toEqual([
      {
        name: "std 0x0-0x7FF",
        type: "nissan-sum-xor",
        ranges: [[0, 0x7ff]],
        store: { address: 0x800, size: 8, endian: "big" },
      },
    ]);
    // RomRaider's CalculateSTD: 32-bit big-endian words from start to end (exclusive), skipping sumloc and xorloc.
    const signed = romRaiderImage();
    signed.set([0xde, 0xad, 0xbe, 0xef, 0x80, 0x00, 0x00, 0x01, 0x7f], 0x100);
    const view = new DataView(signed.buffer);
    let sum = 0;
    let xor = 0;
    for (let at = 0; at < 0x800; at += 4) {
      sum = (sum + view.getInt32(at)) | 0;
      xor ^= view.getInt32(at);
    }
    view.setInt32(0x800, sum);
    view.setInt32(0x804, xor);
    expect(verifyAll(signed, result.checksums).map((r) => r.valid)).toEqual([true]);
    view.setUint8(0x10, 1);
    expect(verifyAll(signed, result.checksums).map((r) => r.valid)).toEqual([false]);
  });

  it("chooses the rom by the stock file's internal id, the firmware id or romId, and refuses a file whose rom cannot be told", () => {
    const two = `<roms>
      <rom><romid><xmlid>AAA</xmlid><internalidaddress>100</internalidaddress><internalidstring>AAA</internalidstring><filesize>4kb</filesize></romid>
        <table type="1D" name="A value" storageaddress="0x10" storagetype="uint8" /></rom>
      <rom><romid><xmlid>BBB</xmlid><internalidaddress>100</internalidaddress><internalidstring>BBB</internalidstring><filesize>4kb</filesize></romid>
        <table type="1D" name="B value" storageaddress="0x20" storagetype="uint8" /></rom>
    </roms>`;
    const stock = image(4096);
    stock.text(0x100, "BBB");
    const titles = (options: Parameters<typeof importRomRaider>[1]) =>
      importRomRaider(two, options).definition.items.map((i) => i.title);
    expect(titles({ firmwareId: "X", stockImage: stock.bytes })).toEqual(["B value"]);
    expect(titles({ firmwareId: "aaa" })).toEqual(["A value"]);
    expect(titles({ firmwareId: "X", romId: "BBB" })).toEqual(["B value"]);
    const ambiguous = refusal(() => importRomRaider(two, { firmwareId: "X" }));
    expect(ambiguous.code).toBe("definition_invalid");
    expect(ambiguous.message).toContain("the file describes 2 roms: AAA, BBB");
    expect(ambiguous.details).toEqual({ roms: ["AAA", "BBB"] });
    expect(refusal(() => importRomRaider(two, { firmwareId: "X", romId: "CCC" })).message).toMatch(
      /^no rom has the xmlid CCC/,
    );
  });

  it("the chosen base alone: its tables have no address and are skipped as such", () => {
    const base = importRomRaider(ROMRAIDER, { firmwareId: "F", romId: "TESTBASE" });
    expect(base.definition.items).toEqual([]);
    expect(new Set(base.skipped.map((s) => s.reason))).toEqual(new Set(["no storage address"]));
  });

  it("moves addresses by filesize minus image size (RomRaider's RAM offset), except beforeram tables; memmodel endian applies to every table", () => {
    const xml = `<rom><romid><xmlid>R</xmlid><filesize>1mb</filesize><memmodel endian="little">TC1797</memmodel></romid>
      <table type="1D" name="Moved" storageaddress="0x80010" storagetype="uint16" endian="big" />
      <table type="1D" name="Kept" storageaddress="0x10" beforeram="true" storagetype="float" />
    </rom>`;
    const result = importRomRaider(xml, { firmwareId: "R", imageSize: 512 * 1024 });
    expect(result.definition.items.map((i) => [i.title, i.z.address, i.z.endian])).toEqual([
      ["Moved", 0x10, "little"],
      ["Kept", 0x10, "little"],
    ]);
    expect(result.warnings[0]).toBe(
      "the definition describes a 1048576-byte file and the image has 524288 bytes: addresses move by -524288 as in RomRaider (tables marked beforeram excepted)",
    );
  });

  it("refuses what is not a RomRaider definition, and a file without an image size", () => {
    expect(refusal(() => importRomRaider("<roms><rom>", { firmwareId: "F" })).message).toMatch(
      /^not a readable RomRaider\/EcuFlash definition: <rom> opened on line 1 is never closed/,
    );
    expect(refusal(() => importRomRaider("<XDFFORMAT/>", { firmwareId: "F" })).message).toBe(
      "not a RomRaider/EcuFlash definition: the root element is <XDFFORMAT>, expected <roms> or <rom>",
    );
    expect(
      refusal(() => importRomRaider("<rom><romid><xmlid>R</xmlid></romid></rom>", { firmwareId: "F" })).message,
    ).toMatch(/^the definition gives no image size/);
  });
});

const ECUFLASH_BASE = `<rom>
 <romid>
  <xmlid>evo_base</xmlid>
  <internalidaddress>f52</internalidaddress>
  <internalidstring>----</internalidstring>
  <memmodel>SH7052</memmodel>
  <checksummodule>mitsucan</checksummodule>
 </romid>
 <scaling name="AFR" units="AFR" toexpr="14.7*128/x" frexpr="14.7*128/x" format="%.1f" min="8" max="20" inc="0.1" storagetype="uint8" endian="big" />
 <scaling name="Load" units="%" toexpr="x*10/32" frexpr="x*32/10" format="%.0f" min="0" max="400" inc="0.32" storagetype="uint16" endian="big" />
 <scaling name="RPM" units="RPM" toexpr="x*1000/256" frexpr="x*256/1000" format="%.0f" min="0" max="11000" inc="50" storagetype="uint16" endian="big" />
 <scaling name="Temp" units="&#176;C" toexpr="x-40" frexpr="x+40" format="%.0f" min="-40" max="140" inc="1" storagetype="uint16" endian="big" />
 <scaling name="ScaleFactor8" units="Scale Factor" toexpr="x/128" frexpr="x*128" format="%.3f" min="0" max="2.0" inc="0.025" storagetype="uint8" endian="big" />
 <scaling name="CrankingStrokeCount" units="strokes" toexpr="640-x" frexpr="640-x" format="%.0f" min="0" max="640" inc="1" storagetype="uint16" endian="big" />
 <scaling name="LT Trim Hz" units="Hz" toexpr="x*6.25" frexpr="x/6.25" format="%.2f" min="0" max="1593.75" inc="6.25" storagetype="uint8" endian="big" />
 <scaling name="Timing" units="degrees" toexpr="x" frexpr="x" format="%.0f" min="-128" max="128" inc="1" storagetype="int8" endian="big" />
 <scaling name="CaseAlphaNumeric" storagetype="bloblist" storagebits="8">
  <data name="MB" value="10"/>
  <data name="MD" value="20"/>
 </scaling>
 <table name="Fuel Mixture - High Octane" category="Fuel" type="3D" swapxy="true" level="4" scaling="AFR">
  <table name="Engine Load" type="X Axis" elements="3" scaling="Load" />
  <table name="RPM" type="Y Axis" elements="2" scaling="RPM" />
 </table>
 <table name="Cranking IPW Compensation" category="Fuel - Cranking" type="2D" level="4" flipy="true" scaling="ScaleFactor8">
  <table name="Cranking units since starter engaged" type="Y Axis" elements="4" flipy="true" scaling="CrankingStrokeCount" />
 </table>
 <table name="Closed Loop Trim - MAF Thresholds" category="Fuel" type="2D" level="4" scaling="LT Trim Hz">
  <table name="Trim Condition" type="Static Y Axis" elements="4">
   <data>Low -&gt; Mid</data>
   <data>Mid -&gt; Low</data>
   <data>Mid -&gt; High</data>
   <data>High -&gt; Mid</data>
  </table>
 </table>
 <table name="Case" category="Misc" type="1D" scaling="CaseAlphaNumeric" />
 <table name="Ignition Advance Compensation - Coolant Temperature" category="Ignition Timing" type="2D" level="4" scaling="Timing">
  <table name="Coolant Temp" type="Y Axis" elements="3" scaling="Temp" />
 </table>
 <table name="Speed Limit" category="Misc" type="1D" level="4" scaling="VehicleSpeed" />
 <table name="Unused In This Rom" category="Misc" type="1D" level="4" scaling="Timing" />
</rom>`;

const ECUFLASH_ROM = `<rom>
 <romid>
  <xmlid>96940011</xmlid>
  <internalidaddress>7f00</internalidaddress>
  <internalidhex>96940011</internalidhex>
  <make>Mitsubishi</make>
  <flashmethod>mitsukernel</flashmethod>
 </romid>
 <include>evo_base</include>
 <table name="Fuel Mixture - High Octane" address="3000">
  <table name="Engine Load" address="3100" />
  <table name="RPM" address="3110" />
 </table>
 <table name="Cranking IPW Compensation" address="3200">
  <table name="Cranking units since starter engaged" address="3210" />
 </table>
 <table name="Closed Loop Trim - MAF Thresholds" address="3300" />
 <table name="Case" address="3400" />
 <table name="Ignition Advance Compensation - Coolant Temperature" address="3500">
  <table name="Coolant Temp" address="3510" />
 </table>
 <table name="Speed Limit" address="3600" />
</rom>`;

function ecuFlashImage() {
  const img = image(0x8000);
  img.u8(0x7f00, 0x96, 0x94, 0x00, 0x11);
  img.u8(0x3000, 128, 64, 100, 80, 120, 90); // column after column (swapxy): load 10 % at 1000 and 4000 rpm, then 20 %, then 100 %
  img.u16(0x3100, 32, 64, 320);
  img.u16(0x3110, 256, 1024);
  img.u8(0x3200, 128, 96, 64, 32);
  img.u16(0x3210, 640, 630, 620, 600);
  img.u8(0x3300, 16, 32, 48, 64);
  img.u8(0x3400, 0x20);
  img.u8(0x3500, -5, 0, 5);
  img.u16(0x3510, 40, 80, 120);
  return img.bytes;
}

describe("EcuFlash definition import", () => {
  const both = `<roms>\n${ECUFLASH_BASE}\n${ECUFLASH_ROM}\n</roms>`;
  const bytes = ecuFlashImage();
  const result = importRomRaider(both, { firmwareId: "96940011", imageSize: 0x8000, stockImage: bytes });
  const byTitle = (title: string) => result.definition.items.find((i) => i.title === title) as TuneItem;
  const read = (title: string) => readItem(bytes, byTitle(title));
  const rounded = (values: number[], digits = 3) => values.map((v) => Number(v.toFixed(digits)));

  it("imports the rom with its included base (both files in one <roms>) and passes the definition contract", () => {
    expect(result.format).toBe("ecuflash");
    expect(result.rom).toEqual({ xmlId: "96940011", inherits: ["evo_base"] });
    expect(result.definition.items.map((i) => `${i.kind} ${i.title}`)).toEqual([
      "table2d Fuel Mixture - High Octane",
      "table1d Cranking IPW Compensation",
      "table1d Closed Loop Trim - MAF Thresholds",
      "enum Case",
      "table1d Ignition Advance Compensation - Coolant Temperature",
    ]);
    expect(checkedTuneDefinitionSchema.safeParse(result.definition).success).toBe(true);
    expect(result.skipped.map(({ element, title, reason }) => ({ element, title, reason }))).toEqual([
      { element: "table", title: "Speed Limit", reason: 'scaling "VehicleSpeed" is not defined in this file' },
      { element: "checksummodule", title: "mitsucan", reason: "not supported: EcuFlash checksum module mitsucan" },
    ]);
    expect(result.warnings).toContain(
      "1 table (inherited from evo_base) have no address for 96940011: not in this ROM, left out",
    );
  });

  it("reads a swapxy 3D table column after column, with the named scalings", () => {
    expect(byTitle("Fuel Mixture - High Octane")).toMatchObject({
      z: {
        address: 0x3000,
        bits: 8,
        rows: 2,
        cols: 3,
        columnMajor: true,
        toPhysical: "14.7*128/X",
        toRaw: "14.7*128/X",
        unit: "AFR",
        decimals: 1,
      },
      x: { address: 0x3100, bits: 16, count: 3, toPhysical: "X*10/32", unit: "%" },
      y: { address: 0x3110, bits: 16, count: 2, toPhysical: "X*1000/256", unit: "RPM" },
    });
    const values = read("Fuel Mixture - High Octane");
    expect(values.x).toEqual({ unit: "%", values: [10, 20, 100] });
    expect(values.y).toEqual({ unit: "RPM", values: [1000, 4000] });
    expect(rounded(values.values)).toEqual(rounded([14.7, 18.816, 15.68, 29.4, 23.52, (14.7 * 128) / 90]));
  });

  it("reads 2D tables: flipped together with the axis (storage order), static labels, signed data over an image axis", () => {
    expect(read("Cranking IPW Compensation")).toMatchObject({
      values: [1, 0.75, 0.5, 0.25],
      x: { unit: "strokes", values: [0, 10, 20, 40] },
    });
    expect(
      result.warnings.some(
        (w) =>
          w.includes('"Cranking IPW Compensation"') &&
          w.endsWith("stored in reverse order together with its axis: shown in storage order"),
      ),
    ).toBe(true);
    expect(read("Closed Loop Trim - MAF Thresholds")).toMatchObject({
      values: [100, 200, 300, 400],
      x: { labels: ["Low -> Mid", "Mid -> Low", "Mid -> High", "High -> Mid"] },
    });
    expect(read("Ignition Advance Compensation - Coolant Temperature")).toMatchObject({
      unit: "degrees",
      values: [-5, 0, 5],
      x: { unit: "°C", values: [0, 40, 80] },
    });
  });

  it("reads a bloblist table as an enum", () => {
    expect(byTitle("Case")).toMatchObject({
      kind: "enum",
      z: { address: 0x3400, bits: 8 },
      values: [
        { raw: 0x10, label: "MB" },
        { raw: 0x20, label: "MD" },
      ],
    });
    expect(read("Case").labels).toEqual(["MD"]);
  });

  it("a rom whose included base is not in the file: each table skipped, saying where its type probably is", () => {
    const alone = importRomRaider(ECUFLASH_ROM, { firmwareId: "96940011", imageSize: 0x8000 });
    expect(alone.format).toBe("ecuflash");
    expect(alone.definition.items).toEqual([]);
    expect(alone.skipped).toHaveLength(6);
    expect(alone.skipped[0].reason).toBe("no type; it is probably defined in evo_base, which is not in this file");
    expect(alone.warnings[0]).toBe(
      "96940011 inherits from evo_base, which is not in this file: import the file that holds evo_base together with this one",
    );
  });
});

describe("RomRaider/EcuFlash expressions and formats", () => {
  it("turns JEP expressions of x into ours", () => {
    expect(convertExpression("(x-760)*.01933677")).toBe("(X-760)*.01933677");
    expect(convertExpression("0.02*x+9.8039217e-009")).toBe("0.02*X+9.8039217e-009");
    expect(convertExpression("ln(x)+log(x)+sqrt(X)")).toBe("log(X)+log10(X)+sqrt(X)");
    expect(convertExpression("x^2/exp (1)")).toBe("X^2/exp (1)");
    expect(convertExpression("")).toBe("X");
    expect(() => convertExpression("if(x>1, 1, 0)")).toThrow("Unknown function 'if'");
    // JEP's logical operators mean what ours do; its assignment has no counterpart.
    expect(convertExpression("x > 1 && x < 5")).toBe("X > 1 && X < 5");
    expect(() => convertExpression("x = 1")).toThrow("Unexpected character '='");
  });

  it("reads decimals from DecimalFormat and printf formats", () => {
    expect([
      decimalsOf("0.00"),
      decimalsOf("#"),
      decimalsOf("#0.000"),
      decimalsOf("%.1f"),
      decimalsOf("%d"),
      decimalsOf("%04X"),
      decimalsOf("%f"),
      decimalsOf(undefined),
    ]).toEqual([2, 0, 3, 1, 0, 0, 6, undefined]);
  });
});

describe("definition import: the format is told by the content", () => {
  it("sends XDFs to the XDF import and RomRaider/EcuFlash files to theirs, refusing anything else by what it is not", () => {
    expect(
      importDefinition(
        `<?xml version="1.0"?>\n<!-- x -->\n<XDFFORMAT><XDFHEADER><REGION size="0x100" /></XDFHEADER></XDFFORMAT>`,
        { firmwareId: "F" },
      ).format,
    ).toBe("xdf");
    expect(importDefinition("XDF\n1.100000\n", { firmwareId: "F", imageSize: 0x100 }).format).toBe("xdf-1.x");
    expect(importDefinition(ROMRAIDER, { firmwareId: "F" }).format).toBe("romraider");
    expect(
      importDefinition(`<roms>${ECUFLASH_BASE}${ECUFLASH_ROM}</roms>`, { firmwareId: "F", imageSize: 0x8000 }).format,
    ).toBe("ecuflash");
    expect(refusal(() => importDefinition("<ROMDEF/>", { firmwareId: "F" })).message).toBe(
      "not a definition we read: the root element is <ROMDEF>; a TunerPro XDF has <XDFFORMAT>, a RomRaider/EcuFlash definition <roms> or <rom>",
    );
    expect(refusal(() => importDefinition("hello", { firmwareId: "F" })).message).toBe(
      "not a definition we read: neither a TunerPro XDF (XML or 1.x text), a RomRaider/EcuFlash XML definition nor an A2L",
    );
  });
});

describe("definition files imported together", () => {
  it("joins a rom and the file of its base into one <roms>, refusing an XDF among them", () => {
    const base = `<?xml version="1.0" encoding="UTF-8"?>\n${ECUFLASH_BASE}\n`;
    const rom = `<?xml version="1.0"?>\n<!-- the rom -->\n${ECUFLASH_ROM}`;
    const combined = combineDefinitionFiles([rom, base]);
    expect(combined.startsWith("<roms>\n<rom>")).toBe(true);
    const result = importDefinition(combined, { firmwareId: "96940011", imageSize: 0x8000 });
    expect(result.rom).toEqual({ xmlId: "96940011", inherits: ["evo_base"] });
    expect(result.summary.items).toBe(5);
    expect(combineDefinitionFiles([ROMRAIDER])).toBe(ROMRAIDER);
    expect(importDefinition(combineDefinitionFiles([ROMRAIDER, rom]), { firmwareId: "A2WC522S" }).summary.items).toBe(
      9,
    );
    expect(refusal(() => combineDefinitionFiles([rom, "<XDFFORMAT/>"])).message).toMatch(
      /^file 2 is not a RomRaider\/EcuFlash definition/,
    );
  });
});

describe("RomRaider/EcuFlash shapes seen in public definitions", () => {
  it("one xmlid for the whole flash and for the calibration alone: the image size tells which (BMW MS43 definitions)", () => {
    const xml = `<roms>
      <rom><romid><xmlid>MS43BASE</xmlid><filesize>512kb</filesize></romid>
        <table type="3D" name="MAF Table" category="Sensordefinition" storagetype="uint16" endian="little" sizex="2" sizey="2">
          <scaling units="-" expression="1.0*x" to_byte="1.0*x" format="#" />
          <table type="X Axis" name="dummy_b" storagetype="uint8" endian="little"><scaling units="-" expression="1.0*x" /></table>
          <table type="Y Axis" name="dummy_b" storagetype="uint8" endian="little"><scaling units="rpm" expression="32.0*x" /></table>
        </table>
      </rom>
      <rom base="MS43BASE"><romid><xmlid>430056</xmlid><filesize>512kb</filesize></romid>
        <table name="MAF Table" storageaddress="0x70E3A"><table type="X Axis" storageaddress="0x740B2" /><table type="Y Axis" storageaddress="0x740A1" /></table>
      </rom>
      <rom base="MS43BASE"><romid><xmlid>430056</xmlid><filesize>64kb</filesize></romid>
        <table name="MAF Table" storageaddress="0xE3A"><table type="X Axis" storageaddress="0x40B2" /><table type="Y Axis" storageaddress="0x40A1" /></table>
      </rom>
    </roms>`;
    const whole = importRomRaider(xml, { firmwareId: "430056", imageSize: 512 * 1024 }).definition.items[0];
    const calibration = importRomRaider(xml, { firmwareId: "430056", imageSize: 64 * 1024 }).definition.items[0];
    // Both axes are named "dummy_b": each keeps its own type, address and scaling.
    expect(whole).toMatchObject({
      z: { address: 0x70e3a },
      x: { address: 0x740b2, toPhysical: "1.0*X" },
      y: { address: 0x740a1, toPhysical: "32.0*X", unit: "rpm" },
    });
    expect(calibration).toMatchObject({ z: { address: 0xe3a }, x: { address: 0x40b2 }, y: { address: 0x40a1 } });
  });

  it("a 2D table stored last to first over static labels reads with the labels reversed; bit bloblists are skipped as such (EcuFlash Magna definitions)", () => {
    const xml = `<rom><romid><xmlid>M</xmlid><filesize>4kb</filesize></romid>
      <scaling name="Temp" units="C" toexpr="x-40" frexpr="x+40" format="%.0f" storagetype="uint8" endian="big" />
      <scaling name="blobbits" storagetype="bloblist" storagebits="1"><data name="0" value="0" /><data name="1" value="1" /></scaling>
      <table name="Fan Control - Aux" address="100" category="Cooling" type="2D" flipy="true" scaling="Temp">
        <table name="Condition" type="Static Y Axis" elements="2"><data>On</data><data>Off</data></table>
      </table>
      <table name="Periphery Bits" address="200" category="Periphery" type="3D" swapxy="true" scaling="blobbits">
        <table name="Spec" type="Static X Axis" elements="2"><data>0</data><data>1</data></table>
        <table name="Bit" type="Static Y Axis" elements="2"><data>a</data><data>b</data></table>
      </table>
    </rom>`;
    const img = image(4096);
    img.u8(0x100, 150, 155); // stored Off (110 °C) then On (115 °C)
    const result = importRomRaider(xml, { firmwareId: "M" });
    expect(readItem(img.bytes, result.definition.items[0])).toMatchObject({
      values: [110, 115],
      x: { labels: ["Off", "On"] },
    });
    expect(result.warnings).toContain(
      'table "Fan Control - Aux" on line 4: stored in reverse order: shown in storage order, its labels reversed to match',
    );
    expect(result.skipped.map((s) => s.reason)).toEqual(["a bloblist of 1-bit values (storagebits) is not supported"]);
  });

  it("a rom chosen with all the base files of its family: the bases it does not use carry no internal id and are not taken for it", () => {
    const otherBase = `<rom><romid><xmlid>magna_at_base</xmlid><memmodel>SH7055</memmodel></romid><include>evo_base</include></rom>`;
    const result = importDefinition(combineDefinitionFiles([ECUFLASH_ROM, ECUFLASH_BASE, otherBase]), {
      firmwareId: "F",
      imageSize: 0x8000,
    });
    expect(result.rom).toEqual({ xmlId: "96940011", inherits: ["evo_base"] });
  });
});
