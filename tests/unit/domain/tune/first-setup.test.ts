import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ChecksumScheme } from "../../../../contracts/tune-definition";
import { findIdentifyCandidates, trySchemes } from "../../../../domain/tune/first-setup";
import { generateDemo } from "../../../../server/seed/generator";

const ME7 = new URL("../../../../../shared/fixtures/images/me7-8D0907551M.bin", import.meta.url);

const ascii = (image: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...image.subarray(offset, offset + length));

describe("identify candidates from a stock read", () => {
  it("finds the part number, the Bosch hardware number and the software id of a real ME7.1 read, each at its offset", () => {
    const image = new Uint8Array(readFileSync(ME7));
    const candidates = findIdentifyCandidates(image);
    const byText = new Map(candidates.map((c) => [c.text, c]));
    expect(byText.get("8D0907551M")?.kind).toBe("part-number");
    expect(byText.get("0261207143")?.kind).toBe("hardware-number");
    expect(byText.get("1037360857")?.kind).toBe("software-id");
    for (const candidate of candidates)
      expect(ascii(image, candidate.offset, candidate.text.length)).toBe(candidate.text);
  });

  it("leaves out filler and test patterns and plain words", () => {
    const image = new Uint8Array(readFileSync(ME7));
    const texts = findIdentifyCandidates(image).map((c) => c.text);
    expect(texts).not.toContain("1234567890AB1234");
    expect(texts).not.toContain("12345678901234567890");
    expect(texts).not.toContain("22222222");
    expect(texts.some((text) => /^[A-Za-z]+$/.test(text))).toBe(false);
  });

  it("offers a text seen twice once, at its first offset, and stops at the limit", () => {
    const image = new Uint8Array(256);
    const put = (offset: number, text: string) =>
      image.set(
        [...text].map((c) => c.charCodeAt(0)),
        offset,
      );
    put(0x10, "ABC7391046");
    put(0x40, "ABC7391046");
    put(0x80, "XZ98765432");
    expect(findIdentifyCandidates(image)).toEqual([
      { offset: 0x10, text: "ABC7391046", kind: "part-number" },
      { offset: 0x80, text: "XZ98765432", kind: "part-number" },
    ]);
    expect(findIdentifyCandidates(image, { limit: 1 })).toHaveLength(1);
  });
});

describe("trying checksum schemes on a stock read", () => {
  const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 4, firmwareId: "SETUP1" });
  const schemes = demo.firmware.checksums as ChecksumScheme[];

  it("says every scheme of the demo firmware verifies on its stock read", () => {
    const trials = trySchemes(demo.stock, schemes);
    expect(trials.map((t) => t.verifies)).toEqual(schemes.map(() => true));
  });

  it("says a scheme does not verify when a byte it covers changed, and one past the image is unusable", () => {
    const image = Uint8Array.from(demo.stock);
    const [first] = schemes;
    image[first.ranges[0][0]] ^= 0xff;
    expect(trySchemes(image, [first])[0].verifies).toBe(false);
    const beyond: ChecksumScheme = { ...first, ranges: [[0, image.length + 15]] };
    expect(trySchemes(image, [beyond])[0]).toMatchObject({
      verifies: false,
      unusable: expect.stringContaining("past"),
    });
  });
});
