import { describe, expect, it } from "vitest";
import type { TimelineKind } from "../../../../../contracts/user-vehicles";
import {
  connectChanged,
  groupTimeline,
  type TimelineRecord,
} from "../../../../../server/services/user-vehicles/timeline-groups";

let seq = 100;
/** Records newest first: each made is older than the one before. */
const record = (kind: TimelineKind, sameAs: string | null): TimelineRecord => {
  seq -= 1;
  const at = `2026-01-01T00:00:${String(seq % 60).padStart(2, "0")}.000Z`;
  return { kind, key: at, id: `id-${seq}`, at, refId: `ref-${seq}`, title: kind, detail: "", result: null, sameAs };
};

describe("timeline groups", () => {
  it("merges consecutive records of one kind with the same sameAs, newest member first", () => {
    const records = [record("connect", "same"), record("connect", "same"), record("connect", "same")];
    const [group, ...rest] = groupTimeline(records);
    expect(rest).toEqual([]);
    expect(group!.entry).toMatchObject({ count: 3, at: records[0]!.at, firstAt: records[2]!.at, refId: "ref-99" });
    expect(group!.entry.members.map((m) => m.refId)).toEqual(records.map((r) => r.refId));
    expect(group!.oldest).toBe(records[2]);
  });

  it("never merges records without sameAs, of another kind or with another sameAs", () => {
    const groups = groupTimeline([
      record("flash", null),
      record("flash", null),
      record("bake", "a"),
      record("bake", "b"),
      record("connect", "a"),
      record("connect", "a"),
    ]);
    expect(groups.map((g) => [g.entry.kind, g.entry.count])).toEqual([
      ["flash", 1],
      ["flash", 1],
      ["bake", 1],
      ["bake", 1],
      ["connect", 2],
    ]);
    expect(groups[0]!.entry.members).toEqual([]);
  });

  it("splits a run longer than the member limit into several entries", () => {
    const groups = groupTimeline(
      Array.from({ length: 5 }, () => record("connect", "same")),
      2,
    );
    expect(groups.map((g) => g.entry.count)).toEqual([2, 2, 1]);
  });

  it("counts a connect as a change when its software id differs or it brings a fault code the one before lacked", () => {
    const before = { softwareId: "SW-1", faultCodes: ["P0299", "P0101"] };
    expect(connectChanged({ softwareId: "SW-1", faultCodes: ["P0101"] }, before)).toBe(false);
    expect(connectChanged({ softwareId: "SW-1", faultCodes: [] }, before)).toBe(false);
    expect(connectChanged({ softwareId: "SW-1", faultCodes: ["P0101", "P0420"] }, before)).toBe(true);
    expect(connectChanged({ softwareId: "SW-2", faultCodes: [] }, before)).toBe(true);
    expect(connectChanged({ softwareId: null, faultCodes: [] }, before)).toBe(true);
    expect(connectChanged({ softwareId: "SW-1", faultCodes: ["P0420"] }, undefined)).toBe(false);
  });
});
