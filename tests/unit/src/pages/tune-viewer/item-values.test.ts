import { describe, expect, it } from "vitest";
import { readItem } from "../../../../../domain/tune/maps";
import { generateDemo } from "../../../../../server/seed/generator";
import { localItemValues } from "../../../../../src/pages/tune-viewer/item-values";

const demo = generateDemo({ size: 64 * 1024, itemCount: 40, patchEntries: 2, firmwareId: "LOCAL64K" });
const { items } = demo.firmware.definition;

describe("localItemValues", () => {
  it("reads every kind of item as the server answers it, through JSON", () => {
    expect(new Set(items.map((item) => item.kind)).size).toBeGreaterThanOrEqual(4);
    for (const item of items) {
      const served = JSON.parse(JSON.stringify(readItem(demo.tune.image, item)));
      expect(localItemValues(demo.tune.image, item), item.id).toEqual(served);
    }
  });

  it("reads the changed maps' tuned values, not stock's", () => {
    const changed = items.filter((item) => demo.tune.changedItems.includes(item.id));
    expect(changed.length).toBeGreaterThan(0);
    for (const item of changed)
      expect(localItemValues(demo.tune.image, item)!.values, item.id).not.toEqual(readItem(demo.stock, item).values);
  });

  it("gives null for an image shorter than the definition, so the server's answer is asked for", () => {
    const last = items.reduce((a, b) => (b.z.address > a.z.address ? b : a));
    expect(localItemValues(demo.tune.image.subarray(0, last.z.address), last)).toBeNull();
  });
});
