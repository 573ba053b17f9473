import { describe, expect, it } from "vitest";
import { identifyRuleSchema } from "../../../../contracts/tune-definition";
import { identifyFirmware, identifyMismatches, matchesIdentify } from "../../../../domain/tune/identify";

const rules = [
  identifyRuleSchema.parse({ address: 0, bytes: "7F454C" }),
  identifyRuleSchema.parse({ address: "0x10", text: "SW123" }),
];

function image(size = 64): Uint8Array {
  const out = new Uint8Array(size);
  out.set([0x7f, 0x45, 0x4c], 0);
  out.set(new TextEncoder().encode("SW123"), 0x10);
  return out;
}

describe("identify rules", () => {
  it("match when every byte and text rule matches", () => {
    expect(matchesIdentify(image(), rules)).toBe(true);
  });

  it("report each failed rule with what the image holds there", () => {
    const other = image();
    other[0x12] = 0x39; // "SW923"
    expect(identifyMismatches(other, rules)).toEqual([{ address: 0x10, expected: '"SW123"', found: "5357393233" }]);
    expect(identifyMismatches(new Uint8Array(2), rules)).toEqual([
      { address: 0, expected: "7F454C", found: "0000" },
      { address: 0x10, expected: '"SW123"', found: "" },
    ]);
  });

  it("identify the firmware whose size and rules match, or none", () => {
    const firmwares = [
      { firmwareId: "small", imageSize: 32, identify: rules },
      { firmwareId: "norules", imageSize: 64, identify: [] },
      { firmwareId: "right", imageSize: 64, identify: rules },
    ];
    expect(identifyFirmware(image(), firmwares)?.firmwareId).toBe("right");
    expect(identifyFirmware(image(128), firmwares)).toBeNull();
  });
});
