import { describe, expect, it } from "vitest";
import { storefrontOf } from "../../../../src/lib/storefront";

const stage1 = { id: "stage-1", dealerUid: "dealer" };
const stage2 = { id: "stage-2", dealerUid: "dealer" };

describe("storefrontOf", () => {
  it("says the car owns every tune on offer once it holds a licence for the only one", () => {
    expect(storefrontOf([stage1], new Set(["stage-1"]), "customer")).toEqual({ offers: [], ownsEveryOffer: true });
  });

  it("offers the tunes the car holds no licence for, and does not claim it owns them all", () => {
    expect(storefrontOf([stage1, stage2], new Set(["stage-1"]), "customer")).toEqual({
      offers: [stage2],
      ownsEveryOffer: false,
    });
  });

  it("claims nothing owned when no tune is sold for the firmware, or only the viewer's own", () => {
    expect(storefrontOf([], new Set(), "customer")).toEqual({ offers: [], ownsEveryOffer: false });
    expect(storefrontOf([stage1], new Set(), "dealer")).toEqual({ offers: [], ownsEveryOffer: false });
  });
});
