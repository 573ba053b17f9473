import { describe, expect, it } from "vitest";
import { detectFormat, parseLog } from "../../../../domain/logs";
import { byName } from "./support/expectations";
import { newFormatFixture } from "./support/fixtures";

const text = (s: string) => new TextEncoder().encode(s);

/**
 * speeduino-v2.mlg, read here with a DataView at offsets worked out from the format description
 * (header 24 bytes, 89-byte fields, blocks of 4 header bytes + record + checksum), not with the
 * parser: 75 fields, 155-byte records from byte 92612, 5019 blocks, all data.
 */
describe("MegaLogViewer v2: speeduino-v2.mlg (TunerStudio, Speeduino 202207)", () => {
  const bytes = newFormatFixture("speeduino-v2.mlg");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataStart = view.getUint32(16);
  const recordLength = view.getUint16(20);
  const record = (r: number) => dataStart + r * (4 + recordLength + 1) + 4;
  // Offsets in a record: Time F32 0, SecL U08 4, RPM U16 5, MAP U16 7, MAPxRPM F32 9, TPS U08 13, AFR U08 14.
  const log = parseLog(bytes);

  it("is read, not refused for its type-16 bit field", () => {
    expect(detectFormat(bytes).format).toBe("megalogviewer");
    expect([dataStart, recordLength, view.getUint16(22)]).toEqual([92612, 155, 75]);
    expect(log.rowCount).toBe((bytes.length - dataStart) / (recordLength + 5));
    expect(log.rowCount).toBe(5019);
    expect(log.channels).toHaveLength(74);
  });

  it("takes time from the Time field and scales values by the field's scale", () => {
    // The F32 stamp is shown as the shortest decimal that is that float.
    expect(Math.fround(log.durationSeconds)).toBe(view.getFloat32(record(5018)));
    expect(log.durationSeconds).toBe(82.727);
    expect(byName(log, "SecL").column[0]).toBe(bytes[record(0) + 4]);
    expect(byName(log, "MAP").column[0]).toBe(view.getUint16(record(0) + 7));
    expect(byName(log, "MAP").column[0]).toBe(70);
    expect(byName(log, "TPS").column[100]).toBeCloseTo(bytes[record(100) + 13] * 0.5, 6);
    expect(byName(log, "TPS").column[100]).toBe(13.5);
    expect(byName(log, "MAP").channel.unit).toBe("kpa");
    expect(byName(log, "Battery V").column[5018]).toBeCloseTo(4.9, 5);
  });

  it("names the nameless bit field by its bit names and says its type was sized from the records", () => {
    const bits = byName(log, "Engine Prot. RPM / Engine Prot. CLT");
    expect(bits.channel.unit).toBe("bits");
    expect(bits.channel.max).toBe(0);
    expect(log.warnings).toEqual([
      'Bit field "Engine Prot. RPM / Engine Prot. CLT" has type 16, which the format description does not list: read as 8 bits, the size its records leave it.',
    ]);
    expect(log.meta.device).toBe("speeduino");
    expect(log.meta.appVersion).toBe("202207");
    expect(log.meta.extra["Capture Date"]).toBe("Sun Nov 13 10:56:01 CET 2022");
  });
});

type Field = { type: number; name: string; unit?: string; scale?: number; transform?: number; bits?: string[] };
const SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 8, 7: 4, 10: 1, 11: 2, 12: 4, 16: 1 };

/** A version-2 file written from the format description, with bit names between the fields and the info. */
function mlg(fields: Field[], rows: number[][]): Uint8Array {
  const record = fields.reduce((s, f) => s + SIZE[f.type], 0);
  const names = fields.flatMap((f) => f.bits ?? []).map((n) => `${n}\0`);
  const namesStart = 24 + fields.length * 89;
  const info = text('"speeduino 202207"\n\0');
  const infoStart = namesStart + names.join("").length;
  const dataStart = infoStart + info.length;
  const out = new Uint8Array(dataStart + rows.length * (record + 5));
  const view = new DataView(out.buffer);
  out.set(text("MLVLG"), 0);
  view.setUint16(6, 2);
  view.setUint32(12, infoStart);
  view.setUint32(16, dataStart);
  view.setUint16(20, record);
  view.setUint16(22, fields.length);
  let nameAt = namesStart;
  fields.forEach((f, i) => {
    const at = 24 + i * 89;
    out[at] = f.type;
    out.set(text(f.name), at + 1);
    out.set(text(f.unit ?? ""), at + 35);
    if (f.bits) {
      out[at + 45] = 2;
      view.setUint32(at + 47, nameAt);
      out[at + 51] = f.bits.length;
      for (const n of f.bits) {
        out.set(text(n), nameAt);
        nameAt += n.length + 1;
      }
    } else {
      view.setFloat32(at + 46, f.scale ?? 1);
      view.setFloat32(at + 50, f.transform ?? 0);
    }
  });
  out.set(info, infoStart);
  let p = dataStart;
  for (const row of rows) {
    let q = p + 4;
    fields.forEach((f, i) => {
      const v = row[i];
      const set = {
        0: () => view.setUint8(q, v),
        1: () => view.setInt8(q, v),
        2: () => view.setUint16(q, v),
        3: () => view.setInt16(q, v),
        4: () => view.setUint32(q, v),
        5: () => view.setInt32(q, v),
        6: () => view.setBigInt64(q, BigInt(v)),
        7: () => view.setFloat32(q, v),
        10: () => view.setUint8(q, v),
        11: () => view.setUint16(q, v),
        12: () => view.setUint32(q, v),
        16: () => view.setUint8(q, v),
      }[f.type];
      set?.();
      q += SIZE[f.type];
    });
    let sum = 0;
    for (let i = p + 4; i < q; i++) sum += out[i];
    out[q] = sum & 0xff;
    p = q + 1;
  }
  return out;
}

describe("MegaLogViewer field types", () => {
  it("reads every type the format description lists, signed and unsigned, with scale and transform", () => {
    const fields: Field[] = [
      { type: 7, name: "Time", unit: "s" },
      { type: 0, name: "U08" },
      { type: 1, name: "S08" },
      { type: 2, name: "U16" },
      { type: 3, name: "S16", scale: 0.1, transform: -400 },
      { type: 4, name: "U32" },
      { type: 5, name: "S32" },
      { type: 6, name: "S64" },
      { type: 7, name: "F32" },
      { type: 10, name: "Status8", bits: ["a", "b"] },
      { type: 11, name: "Status16", bits: ["c"] },
      { type: 12, name: "Status32", bits: [] },
    ];
    const log = parseLog(
      mlg(fields, [
        [0, 250, -120, 65000, -30000, 4_000_000_000, -2_000_000_000, -5_000_000_000, 1.5, 3, 0x8001, 0xfffffff0],
        [0.5, 1, 1, 1, 1000, 1, 1, 1, 1, 0, 0, 0],
      ]),
    );
    expect(log.warnings).toEqual([]);
    expect(log.durationSeconds).toBe(0.5);
    expect(log.channels.map((c) => c.name)).toEqual(fields.slice(1).map((f) => f.name));
    expect(log.columns.map((c) => c[0])).toEqual([
      250,
      -120,
      65000,
      Math.fround((-30000 - 400) * 0.1),
      4_000_000_000,
      -2_000_000_000,
      -5_000_000_000,
      1.5,
      3,
      0x8001,
      Math.fround(0xfffffff0),
    ]);
  });

  it("sizes one bit field of a type the description does not list from the record length", () => {
    const log = parseLog(
      mlg(
        [
          { type: 7, name: "Time", unit: "s" },
          { type: 16, name: "", unit: "bits", bits: ["Engine Prot. RPM", "Engine Prot. CLT"] },
          { type: 2, name: "RPM", unit: "rpm" },
        ],
        [
          [0, 2, 900],
          [0.1, 1, 950],
        ],
      ),
    );
    expect(log.channels.map((c) => c.name)).toEqual(["Engine Prot. RPM / Engine Prot. CLT", "RPM"]);
    expect(Array.from(log.columns[0])).toEqual([2, 1]);
    expect(Array.from(log.columns[1])).toEqual([900, 950]);
  });

  it("refuses a scalar type the description does not list, naming the field and the type", () => {
    const bytes = mlg(
      [
        { type: 7, name: "Time", unit: "s" },
        { type: 0, name: "RPM" },
      ],
      [[0, 1]],
    );
    bytes[24 + 89] = 9;
    expect(() => parseLog(bytes)).toThrow('MegaLogViewer log: field "RPM" has an unknown type 9.');
  });
});
