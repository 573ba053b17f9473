import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CHECKSUM_LAYOUT, CHECKSUM_TYPES } from "../../../../contracts/tune-definition";
import { checkedTuneDefinitionSchema } from "../../../../domain/tune/checked-schemas";
import { fixAll, verifyAll } from "../../../../domain/tune/checksums";
import { diffImages } from "../../../../domain/tune/diff";
import { matchesIdentify } from "../../../../domain/tune/identify";
import { readItem } from "../../../../domain/tune/maps";
import { applyPatches, patchState } from "../../../../domain/tune/patches";
import { generateDemo } from "../../../../server/seed/generator";

const demo = generateDemo({ size: 0x10000 });
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("demo firmware generator", () => {
  it("makes a stock image that passes every checksum and its identify rules", () => {
    expect(demo.stock.length).toBe(0x10000);
    expect(verifyAll(demo.stock, demo.firmware.checksums).filter((r) => !r.valid)).toEqual([]);
    expect(matchesIdentify(demo.stock, demo.firmware.identify)).toBe(true);
  });

  it("covers every checksum type, with stores nested inside other schemes' ranges", () => {
    const schemes = demo.firmware.checksums;
    expect(new Set(schemes.map((s) => s.type))).toEqual(new Set(CHECKSUM_TYPES));
    const nested = schemes.filter((inner) =>
      schemes.some(
        (outer) =>
          outer !== inner &&
          outer.ranges.some(
            ([start, end]) =>
              inner.store.address >= start && inner.store.address + CHECKSUM_LAYOUT[inner.type].storeSize - 1 <= end,
          ),
      ),
    );
    expect(nested.length).toBeGreaterThanOrEqual(4);
    // Fixing an already valid image changes nothing and settles in one pass.
    const copy = demo.stock.slice();
    expect(fixAll(copy, schemes)).toMatchObject({ passes: 1, fixed: [] });
  });

  it("defines items of every kind and element type, with axes from the image and static labels", () => {
    const items = demo.firmware.definition.items;
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(["constant", "flag", "enum", "table1d", "table2d"]));
    const elements = items.map((i) => i.z);
    expect(new Set(elements.filter((e) => !e.float).map((e) => `${e.bits}${e.signed ? "s" : "u"}`))).toEqual(
      new Set(["8u", "16u", "16s", "32u", "32s"]),
    );
    expect(
      elements.some((e) => e.float && e.endian === "big") && elements.some((e) => e.float && e.endian === "little"),
    ).toBe(true);
    expect(elements.some((e) => e.endian === "little") && elements.some((e) => e.endian === "big")).toBe(true);
    expect(items.some((i) => (i.kind === "table2d" || i.kind === "table1d") && i.z.columnMajor)).toBe(true);
    const axes = items
      .flatMap((i) => (i.kind === "table2d" ? [i.x, i.y] : i.kind === "table1d" ? [i.x] : []))
      .filter((a) => a !== undefined);
    expect(axes.some((a) => "labels" in a) && axes.some((a) => "address" in a)).toBe(true);
    expect(checkedTuneDefinitionSchema.parse(demo.firmware.definition)).toEqual(demo.firmware.definition);
  });

  it("writes plausible map values that read back through the definition", () => {
    const boost = demo.firmware.definition.items.find((i) => i.id === "boost_target")!;
    const values = readItem(demo.stock, boost);
    expect(values.values.every((v) => v >= 0 && v <= 40)).toBe(true);
    expect(values.x && "values" in values.x && values.x.values).toEqual([
      10, 18, 26, 34, 42, 50, 58, 66, 74, 82, 90, 98,
    ]);
  });

  it("is deterministic for a seed and differs between seeds", () => {
    const again = generateDemo({ size: 0x10000 });
    expect(sha(again.stock)).toBe(sha(demo.stock));
    expect(sha(again.tune.image)).toBe(sha(demo.tune.image));
    expect(again.patches).toEqual(demo.patches);
    expect(sha(generateDemo({ size: 0x10000, seed: 2 }).stock)).not.toBe(sha(demo.stock));
  });

  it("provides patches absent in stock that apply and verify after fixing", () => {
    expect(demo.patches.map((p) => patchState(demo.stock, p).state)).toEqual(["absent", "absent", "absent", "absent"]);
    const outcome = applyPatches(demo.stock, demo.patches, {
      firmwareId: demo.firmware.firmwareId,
      checksums: demo.firmware.checksums,
    });
    expect(demo.patches.map((p) => patchState(outcome.image, p).state)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
    ]);
    expect(verifyAll(outcome.image, demo.firmware.checksums).every((r) => r.valid)).toBe(true);
  });

  it("provides a tune that changes a few maps and still verifies", () => {
    expect(verifyAll(demo.tune.image, demo.firmware.checksums).every((r) => r.valid)).toBe(true);
    const changes = diffImages(demo.stock, demo.tune.image, { definition: demo.firmware.definition });
    const changedItems = new Set(changes.flatMap((c) => c.items.map((i) => i.id)));
    expect([...changedItems].sort()).toEqual([...demo.tune.changedItems].sort());
    expect(demo.tune.changedItems).toEqual([
      "boost_target",
      "ignition_base",
      "rev_limit",
      "launch_control",
      "speed_limit",
    ]);
  });

  it("generates thousands of items on a full-size image", () => {
    const big = generateDemo({ itemCount: 2000, patchEntries: 1000 });
    expect(big.stock.length).toBe(8 * 1024 * 1024);
    expect(big.firmware.definition.items).toHaveLength(2000);
    expect(big.patches.reduce((n, p) => n + p.entries.length, 0)).toBe(1000);
    expect(verifyAll(big.stock, big.firmware.checksums).every((r) => r.valid)).toBe(true);
  });

  it("refuses sizes that are not a power of two of at least 64 KiB", () => {
    expect(() => generateDemo({ size: 50_000 })).toThrow(
      "demo image size must be a power of two of at least 64 KiB, got 50000",
    );
  });
});
