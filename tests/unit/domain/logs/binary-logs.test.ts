import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { detectFormat, LogParseError, parseLog } from "../../../../domain/logs";
import { byName } from "./support/expectations";
import { newFormatFixture } from "./support/fixtures";

const gunzip = (bytes: Uint8Array) => new Uint8Array(gunzipSync(bytes));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The refusal a parse ends in, for checking its code and message together. */
function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof LogParseError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("the file was read, not refused");
}

/**
 * link-g4x.llg5 (PCLink, G5 Voodoo). The offsets below were found by walking the file's blocks
 * by hand (u32 size + tag) in a hex dump: "Engine Speed" is the ds3 block at byte 20412 (645
 * bytes) whose 1133 (f32 time, f32 value) pairs start at 21057; "MAP" is at 263073 (pairs from
 * 263718, 1132 of them); "ECT" at 295085 (pairs from 295730, 283 of them, sampled at 5 Hz).
 */
describe("Link ECU .llg5: link-g4x.llg5", () => {
  const bytes = newFormatFixture("link-g4x.llg5");
  const dv = view(bytes);
  const pair = (start: number, k: number) => [
    dv.getFloat32(start + k * 8, true),
    dv.getFloat32(start + k * 8 + 4, true),
  ];
  const log = parseLog(bytes);

  it("is recognised by its lf3 header block and read, not refused as binary", () => {
    expect(detectFormat(bytes).format).toBe("link");
    expect(log.format).toBe("link");
    expect(log.channels).toHaveLength(30);
    expect(log.rowCount).toBe(1133);
  });

  it("reads each channel's (time, value) pairs at the offsets of its block", () => {
    const rpm = byName(log, "Engine Speed");
    expect(rpm.channel.unit).toBe("RPM");
    expect([rpm.column[0], rpm.column[1], rpm.column[2]]).toEqual([
      pair(21057, 0)[1],
      pair(21057, 1)[1],
      pair(21057, 2)[1],
    ]);
    expect([rpm.column[0], rpm.column[1], rpm.column[2]]).toEqual([107, 136, 288]);
    expect(rpm.column[1132]).toBe(1378);
    expect(log.time[2]).toBe(0.051);
    expect(Math.fround(log.durationSeconds)).toBe(pair(21057, 1132)[0]);
    expect(log.durationSeconds).toBe(52.787);
  });

  it("holds a slower channel's latest sample at the faster channels' times", () => {
    const ect = byName(log, "ECT");
    expect(ect.channel.unit).toBe("°C");
    expect(ect.channel.sourceHeader).toBe("ECT (id 1004)");
    // ECT's second sample is at 0.102 s; at 0.051 s it still shows its first.
    expect(ect.column[2]).toBe(pair(295730, 0)[1]);
    expect(ect.column[2]).toBeCloseTo(16.2, 5);
    // Its last sample (52.587 s, 22.3 °C) and MAP's (52.737 s, 66.3 kPa) hold to the log's end.
    expect(ect.column[1132]).toBe(pair(295730, 282)[1]);
    expect(byName(log, "MAP").column[1132]).toBe(pair(263718, 1131)[1]);
    expect(byName(log, "MAP").channel.unit).toBe("kPa");
    expect(log.warnings).toEqual([
      "Channels are sampled at different rates: each is shown at every time of the log with its latest sample, and as a gap before its first.",
    ]);
  });

  it("reads the ECU, the start from the title and the markers with their times", () => {
    expect(log.meta.device).toBe("G5 Voodoo Pro");
    expect(log.meta.extra.title).toBe("ECU Internal Datalog - 2024-02-8 3;56;20 pm");
    expect(log.meta.startedAt).toBe("2024-02-08T15:56:20");
    const markers = (log.meta.extra.markers ?? "").split("; ");
    expect(markers).toHaveLength(30);
    expect(markers[0]).toBe("Record Start @ 0.000 s");
    // The last marker block (lm1 at byte 19979) keeps its f64 time at +208.
    expect(markers[29]).toBe(`EOL @ ${dv.getFloat64(19979 + 208, true).toFixed(3)} s`);
    expect(markers[29]).toBe("EOL @ 52.787 s");
  });
});

/**
 * emerald-idle-and-rev.lg1 + .lg2: 60360 bytes = 2515 records of 24 (f64 OLE date, 8 × u16);
 * the .lg2 lists slots 1–8 as ids 19 46 2 20 1 31 32 17. Values read here at record offsets.
 */
describe("Emerald ECU .lg1 with its .lg2", () => {
  const lg1 = newFormatFixture("emerald-idle-and-rev.lg1");
  const lg2 = { name: "emerald-idle-and-rev.lg2", bytes: newFormatFixture("emerald-idle-and-rev.lg2") };
  const dv = view(lg1);
  const sample = (record: number, slot: number) => dv.getUint16(record * 24 + 8 + (slot - 1) * 2, true);
  const log = parseLog(lg1, { companions: [lg2] });

  it("reads the eight slots the channel list names, with time from the records' dates", () => {
    expect(detectFormat(lg1).format).toBe("emerald");
    expect(log.rowCount).toBe(lg1.length / 24);
    expect(log.rowCount).toBe(2515);
    expect(log.channels.map((c) => c.name)).toEqual([
      "Coolant Temp",
      "Channel 46",
      "Air Temp",
      "RPM",
      "Channel 1",
      "Channel 31",
      "Channel 32",
      "Channel 17",
    ]);
    const days = (r: number) => dv.getFloat64(r * 24, true);
    expect(log.durationSeconds).toBeCloseTo((days(2514) - days(0)) * 86400, 6);
    expect(log.durationSeconds).toBeCloseTo(85.719, 3);
    expect(log.time[1]).toBeCloseTo(0.016, 6);
    expect(log.meta.startedAt).toBe("2025-12-31T14:13:20.593");
  });

  it("keeps the samples as the records hold them", () => {
    expect(byName(log, "RPM").column[0]).toBe(sample(0, 4));
    expect(byName(log, "RPM").column[0]).toBe(945);
    expect(byName(log, "RPM").channel.max).toBe(5260);
    expect(byName(log, "Coolant Temp").column[2514]).toBe(sample(2514, 1));
    expect(byName(log, "Channel 17").column[1000]).toBe(sample(1000, 8));
    expect(log.warnings[0]).toMatch(/ids 46, 1, 31, 32, 17 .*raw numbers named by id/);
  });

  it("asks for the .lg2 when the .lg1 comes alone, and for the .lg1 when the .lg2 does", () => {
    expect(refusal(() => parseLog(lg1))).toEqual({
      code: "needs-companion",
      message:
        "An Emerald ECU .lg1 log: upload it together with its .lg2 channel list (the file of the same name beside it), which says what each column holds.",
    });
    expect(refusal(() => parseLog(lg2.bytes)).code).toBe("needs-companion");
    expect(refusal(() => parseLog(lg2.bytes)).message).toMatch(/Upload it together with its \.lg1 log/);
  });
});

describe("binary logs whose layout is not public are refused naming the logger and the export", () => {
  it("an AEM .daq (banner 'EMERALD v1.00 file', AEM25 channels)", () => {
    const bytes = newFormatFixture("aem.daq");
    expect(new TextDecoder().decode(bytes.subarray(0, 18))).toBe("EMERALD v1.00 file");
    expect(refusal(() => parseLog(bytes))).toEqual({
      code: "unsupported",
      message:
        "An AEM .daq log: its layout is not public, so it cannot be read here. Export it as CSV from AEMdata (File → Export → CSV) and upload that file.",
    });
  });

  it("an ECUMaster .emublog, gzip of frames that name no channels", () => {
    const bytes = newFormatFixture("ecumaster-220kpa.emublog");
    const unpacked = gunzip(bytes);
    // Unpacked by hand: u32 0x22446082, u32 5, u32 1740 frames, then 1740 × 308 bytes.
    expect([view(unpacked).getUint32(0, true), view(unpacked).getUint32(8, true)]).toEqual([0x22446082, 1740]);
    expect(unpacked.length).toBe(12 + 1740 * 308);
    const refused = refusal(() => parseLog(bytes, { gunzip }));
    expect(refused.code).toBe("unsupported");
    expect(refused.message).toMatch(/^An ECUMaster EMU \.emublog log: it holds 1740 frames of 308 bytes/);
    expect(refused.message).toMatch(/Export it as CSV from the EMU Black client/);
    // Without a way to unpack it, the gzip stream is still refused naming ECUMaster.
    expect(refusal(() => parseLog(bytes)).message).toMatch(/gzip-compressed.*ECUMaster EMU \.emublog/);
  });

  it("reads a gzip-compressed text log like the log inside", () => {
    const csv = new TextEncoder().encode("Time,RPM\n0,800\n0.5,900\n");
    const log = parseLog(new Uint8Array(gzipSync(csv)), { gunzip });
    expect(log.channels.map((c) => c.name)).toEqual(["RPM"]);
    expect(log.durationSeconds).toBe(0.5);
  });

  it("still refuses other binary data as not a text log", () => {
    expect(refusal(() => parseLog(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0]))).code).toBe("binary");
  });
});
