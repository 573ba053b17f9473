import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ItemValues } from "../../../../contracts/tune-definition";
import { parseLog } from "../../../../domain/logs";
import { serializeColumns } from "../../../../domain/logs/serialize";
import { readLogColumns } from "../../../../src/lib/log-columns";
import {
  acceptedCorrection,
  axisBreakpoints,
  axisChannels,
  changedCells,
  correctionKindOf,
  correctionReasons,
  inputChannels,
  joinLogs,
  type LogColumns,
  logsOnMap,
  mapOnAxes,
  proposeCorrection,
} from "../../../../src/lib/logs-on-map";

/** A boost target map: columns along throttle %, rows along rpm given as labels, as some definitions do. */
const boostMap: ItemValues = {
  id: "boost_target",
  kind: "table2d",
  rows: 3,
  cols: 2,
  unit: "psi",
  values: [10, 10, 12, 12, 14, 14],
  x: { unit: "%", values: [50, 100] },
  y: { labels: ["2,000", "4,000", "6,000"] },
};

/** A log in the form the portal stores, read back as the browser reads it. */
async function storedLog(csv: string): Promise<LogColumns> {
  const parsed = parseLog(new TextEncoder().encode(csv));
  return readLogColumns(serializeColumns(parsed, (bytes) => new Uint8Array(deflateRawSync(bytes))));
}

const pull = (rows: [number, number, number, number][]) =>
  [
    "Time (s),Engine speed (rpm),Throttle (%),Boost (psi),Boost target (psi)",
    ...rows.map((r, i) => `${i / 10},${r.join(",")}`),
  ].join("\n");

describe("logs on a map", () => {
  it("takes breakpoints from an axis's values, or from labels that all read as numbers", () => {
    expect(axisBreakpoints({ values: [1, 2] })).toEqual([1, 2]);
    expect(axisBreakpoints({ labels: ["1,000", "2000"] })).toEqual([1000, 2000]);
    expect(axisBreakpoints({ labels: ["1st", "2nd"] })).toBeNull();
    expect(mapOnAxes(boostMap)).toEqual({
      xBreakpoints: [50, 100],
      yBreakpoints: [2000, 4000, 6000],
      values: boostMap.values,
    });
    expect(mapOnAxes({ ...boostMap, y: { labels: ["a", "b", "c"] } })).toBeNull();
  });

  it("reads a stored, deflated log's channels and finds those that index the map and feed its correction", async () => {
    const log = await storedLog(pull([[2000, 100, 8, 10]]));
    expect(log.channels.map((c) => c.name)).toEqual(["Engine speed", "Throttle", "Boost", "Boost target"]);
    expect([...log.columns.get(log.channels[0].id)!]).toEqual([2000]);
    expect(axisChannels(log.channels, boostMap)).toEqual({ x: "Throttle", y: "Engine speed" });
    expect(correctionKindOf("Target boost", "psi")).toBe("boost");
    expect(correctionKindOf("Base ignition timing", "°")).toBe("timing");
    expect(inputChannels("boost", log.channels)).toEqual({ actual: "Boost", target: "Boost target" });
  });

  it("counts hits and means per cell over several logs, leaving unvisited cells empty", async () => {
    const first = await storedLog(
      pull([
        [2100, 60, 9, 10],
        [1900, 40, 11, 10],
      ]),
    );
    const second = await storedLog(pull([[6000, 100, 13, 14]]));
    const histogram = logsOnMap([first, second], mapOnAxes(boostMap)!, {
      x: "Throttle",
      y: "Engine speed",
      z: "Boost",
      minSamples: 2,
    });
    expect(histogram.count).toBe(3);
    expect(histogram.cells[0][0]).toMatchObject({ count: 2, mean: 10, enough: true });
    expect(histogram.cells[2][1]).toMatchObject({ count: 1, mean: 13, enough: false });
    expect(histogram.cells[1][0]).toMatchObject({ count: 0, mean: null });
    expect(joinLogs([first, second], ["Boost"]).Boost).toHaveLength(3);
  });

  it("proposes a boost change only where the logs ran off target, keeps the accepted cells, and words the reason", async () => {
    // 4,000 rpm at full throttle ran 1 psi under target in both logs; elsewhere on target.
    const rows: [number, number, number, number][] = [
      [4000, 100, 11, 12],
      [4050, 95, 11, 12],
      [2000, 50, 10, 10],
      [2000, 55, 10, 10],
    ];
    const logs = [await storedLog(pull(rows)), await storedLog(pull(rows))];
    const map = mapOnAxes(boostMap)!;
    const correction = proposeCorrection(
      logs,
      map,
      { kind: "boost", x: "Throttle", y: "Engine speed", inputs: { actual: "Boost", target: "Boost target" } },
      { minSamples: 2, maxChangePerCell: { absolute: 0.5 } },
    );
    expect(changedCells(correction, 2)).toEqual([{ row: 1, col: 1, value: 12.5 }]);
    expect(correction.cells[3]).toMatchObject({ before: 12, after: 12.5, samples: 4 });
    expect(correctionReasons("boost", correction, map, boostMap, 2, { y: "rpm" })).toEqual([
      "boost +0.5 psi at 4,000 rpm, 100 %: boost ran under target there in the 2 logs you sent",
    ]);
    const adjusted = acceptedCorrection(correction, new Map([[3, 12.25]]));
    expect(changedCells(adjusted, 2)).toEqual([{ row: 1, col: 1, value: 12.25 }]);
    expect(changedCells(acceptedCorrection(correction, new Map()), 2)).toEqual([]);
  });
});
