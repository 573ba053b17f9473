import { describe, expect, it } from "vitest";
import { changedRanges } from "../../../../../domain/tune";
import { generateDemo } from "../../../../../server/seed/generator";
import { stockFromDifferences } from "../../../../../src/pages/tune-viewer/stock-image";

describe("stock image from the differences the server sends", () => {
  it("rebuilds the stock image byte for byte from the tune and the stock bytes where they differ", () => {
    const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 2 });
    const regions = changedRanges(demo.stock, demo.tune.image, 0).map(({ start, end }) => ({
      start,
      bytes: Buffer.from(demo.stock.subarray(start, end + 1)).toString("base64"),
    }));
    expect(regions.length).toBeGreaterThan(0);
    const stock = stockFromDifferences(demo.tune.image, { size: demo.stock.length, regions });
    expect(Buffer.from(stock).equals(Buffer.from(demo.stock))).toBe(true);
    // The tune's own bytes are left as they were.
    expect(Buffer.from(demo.tune.image).equals(Buffer.from(demo.stock))).toBe(false);
  });

  it("refuses differences of another size", () => {
    expect(() => stockFromDifferences(new Uint8Array(16), { size: 32, regions: [] })).toThrow("32 bytes");
  });
});
