import { describe, expect, it } from "vitest";
import { detectFormat, parseLog } from "../../../../domain/logs";

const text = (s: string) => new TextEncoder().encode(s);

/** A MegaLogViewer v2 file: header, field list, info text, then data and marker blocks. */
function mlgV2(
  fields: { type: number; name: string; unit: string; scale: number; transform: number }[],
  rows: number[][],
  marker?: { afterRow: number; text: string },
) {
  const size: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 7: 4 };
  const record = fields.reduce((s, f) => s + size[f.type], 0);
  const info = text('"rusEFI 2024.05.01"\n"Capture Date: Sat Jun 01 10:00:00 2024"\n\0');
  const header = 24 + fields.length * 89;
  const dataStart = header + info.length;
  const blocks = rows.length * (4 + record + 1) + (marker ? 54 : 0);
  const out = new Uint8Array(dataStart + blocks);
  const view = new DataView(out.buffer);
  out.set(text("MLVLG"), 0);
  view.setUint16(6, 2);
  view.setUint32(8, 1717236000);
  view.setUint32(12, header);
  view.setUint32(16, dataStart);
  view.setUint16(20, record);
  view.setUint16(22, fields.length);
  fields.forEach((f, i) => {
    const at = 24 + i * 89;
    out[at] = f.type;
    out.set(text(f.name), at + 1);
    out.set(text(f.unit), at + 35);
    view.setFloat32(at + 46, f.scale);
    view.setFloat32(at + 50, f.transform);
  });
  out.set(info, header);
  let p = dataStart;
  rows.forEach((row, r) => {
    out[p] = 0;
    out[p + 1] = r & 0xff;
    view.setUint16(p + 2, (r * 30000) & 0xffff); // 0.3 s apart in 10 µs ticks, wrapping
    let q = p + 4;
    fields.forEach((f, i) => {
      if (f.type === 0) view.setUint8(q, row[i]);
      else if (f.type === 3) view.setInt16(q, row[i]);
      else if (f.type === 2) view.setUint16(q, row[i]);
      else view.setFloat32(q, row[i]);
      q += size[f.type];
    });
    let sum = 0;
    for (let i = p + 4; i < q; i++) sum += out[i];
    out[q] = sum & 0xff;
    p = q + 1;
    if (marker && marker.afterRow === r) {
      out[p] = 1;
      out.set(text(marker.text), p + 4);
      p += 54;
    }
  });
  return out;
}

describe("MegaLogViewer .mlg", () => {
  it("reads version 2 with scale and transform, time from the block stamps across wraps, and markers as events", () => {
    const bytes = mlgV2(
      [
        { type: 2, name: "RPM", unit: "rpm", scale: 1, transform: 0 },
        { type: 3, name: "CLT", unit: "C", scale: 0.1, transform: -400 },
        { type: 0, name: "RPM", unit: "rpm", scale: 1, transform: 0 },
      ],
      [
        [900, 1200, 1],
        [950, 1210, 2],
        [1000, 1220, 3],
        [1100, 1230, 4],
      ],
      { afterRow: 1, text: "Manual 1" },
    );
    expect(detectFormat(bytes).format).toBe("megalogviewer");
    const log = parseLog(bytes);
    expect(log.format).toBe("megalogviewer");
    expect(log.rowCount).toBe(4);
    expect(log.channels.map((c) => [c.name, c.unit])).toEqual([
      ["RPM", "rpm"],
      ["CLT", "C"],
      ["RPM #2", "rpm"],
    ]);
    expect(log.columns[1][0]).toBeCloseTo((1200 - 400) * 0.1, 4);
    // Stamps 0, 30000, 60000, 24464 (wrapped): 0.3 s apart.
    expect(Array.from(log.time, (t) => Number(t.toFixed(6)))).toEqual([0, 0.3, 0.6, 0.9]);
    expect(log.meta.extra.markers).toBe("Manual 1 @ 0.300 s");
    expect(log.meta.device).toBe("rusEFI");
    expect(log.warnings.some((w) => w.includes('"RPM #2"'))).toBe(true);
  });

  it("still refuses other binary data", () => {
    expect(() => parseLog(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0]))).toThrow(/binary/);
  });
});

describe("time units", () => {
  it.each([
    ["Time (min),RPM\n0,800\n0.5,900\n", 30],
    ["Time_ms,RPM\n0,800\n250,900\n", 0.25],
    ["Time[s],RPM\n0,800\n2,900\n", 2],
    ["Time,RPM\n0,800\n1,900\n2,950\n", 2],
    ["TIME,RPM\n1000,800\n1050,900\n1100,950\n", 0.1],
  ])("%j lasts %d s", (csv, duration) => {
    expect(parseLog(text(csv)).durationSeconds).toBeCloseTo(duration, 9);
  });
});

describe("header rows", () => {
  // LogWorks (Innovate) writes a session line, the names, then each unit in parentheses.
  it.each([
    ["a session line as wide as the header", "Session: 1,,,\n"],
    ["a one-cell session line", "Session: 1 (LogWorks)\n"],
    ["a title line and a session line", "LogWorks 3 export\nSession: 1,,,\n"],
  ])("takes a row of parenthesised cells under the names as units, under %s", (_, preamble) => {
    const log = parseLog(
      text(
        `${preamble}time,LC1_O2WB,RPM,Boost\n(ms),(AFR),(RPM),(psi)\n0,14.7,850,-10.2\n50,14.6,900,-9.8\n100,13.2,1500,1.5\n`,
      ),
    );
    expect(log.format).toBe("generic-csv");
    expect(log.channels.map((c) => [c.name, c.unit])).toEqual([
      ["LC1_O2WB", "AFR"],
      ["RPM", "RPM"],
      ["Boost", "psi"],
    ]);
    expect(log.durationSeconds).toBeCloseTo(0.1, 9);
    expect(log.meta.extra.Session).toMatch(/^1/);
    expect(log.columns[2][2]).toBeCloseTo(1.5, 6);
  });

  it("tells a units row from an alias row under the header (names, units, aliases)", () => {
    const log = parseLog(
      text("TimeStamp,nmot_w,rl_w\ns,rpm,%\n,EngineSpeed,EngineLoad\n0.1,800,20\n0.2,820,21\n0.3,840,22\n"),
    );
    expect(log.channels.map((c) => [c.name, c.unit, c.sourceHeader])).toEqual([
      ["EngineSpeed", "rpm", "nmot_w"],
      ["EngineLoad", "%", "rl_w"],
    ]);
    expect(log.rowCount).toBe(3);
  });

  it("keeps parentheses in names whose units come from their own row (HP Tuners)", () => {
    const csv = [
      "[Channel Information]",
      "12,13,14",
      "Offset,Engine RPM (SAE),Throttle Position (%)",
      "s,rpm,%",
      "[Channel Data]",
      "0,800,5",
      "0.1,820,6",
    ].join("\n");
    const log = parseLog(text(csv));
    expect(log.format).toBe("hp-tuners");
    expect(log.channels.map((c) => [c.name, c.unit])).toEqual([
      ["Engine RPM (SAE)", "rpm"],
      ["Throttle Position (%)", "%"],
    ]);
  });
});

describe("identity columns", () => {
  it("turns header cells with no data under them into metadata, wherever the logger puts its version", () => {
    const log = parseLog(text("Time,RPM,Boost,MyLogger v3.1.4\n0,800,1.0\n0.1,820,1.1\n0.2,830,1.2\n"));
    expect(log.channels.map((c) => c.name)).toEqual(["RPM", "Boost"]);
    expect(log.meta.device).toBe("MyLogger");
    expect(log.meta.appVersion).toBe("3.1.4");
  });

  it("turns a constant column named like a version into metadata", () => {
    const log = parseLog(text("Time,Firmware Version,RPM\n0,2.4.1,800\n0.1,2.4.1,820\n0.2,2.4.1,830\n"));
    expect(log.channels.map((c) => c.name)).toEqual(["RPM"]);
    expect(log.meta.appVersion).toBe("2.4.1");
  });

  it("keeps an empty last column under a trailing delimiter as before", () => {
    const log = parseLog(text("Time,RPM,Notes\n0,800,\n0.1,820,\n"));
    expect(log.channels.map((c) => c.name)).toEqual(["RPM"]);
    expect(log.meta.extra.identity).toBeUndefined();
  });
});

describe("MegaLogViewer .msl", () => {
  it("reads the quoted preamble, the tab header and the units row", () => {
    const log = parseLog(
      text(
        '"speeduino 202310"\n"Capture Date: Mon Jan 01 2024"\nTime\tRPM\tMAP\ns\trpm\tkpa\n0.000\t800\t100\n0.050\t820\t101\n',
      ),
    );
    expect(log.format).toBe("megalogviewer");
    expect(log.channels.map((c) => [c.name, c.unit])).toEqual([
      ["RPM", "rpm"],
      ["MAP", "kpa"],
    ]);
    expect(log.durationSeconds).toBeCloseTo(0.05, 9);
    expect(log.meta.appVersion).toBe("202310");
  });
});
