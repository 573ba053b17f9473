import { describe, expect, it } from "vitest";
import { patchSchema } from "../../../../../contracts/tune-definition";
import { entriesFromImages, formatEntries, parseEntries } from "../../../../../src/resources/tune-file-patches/entries";

describe("patch entries as hex lines", () => {
  it("reads address, patch and base per line, skipping blanks and comments", () => {
    expect(parseEntries("0x1a2b 9090 7501\n\n# nop the check\n4096 ff 00")).toEqual({
      entries: [
        { address: "0x1A2B", patch: "9090", base: "7501" },
        { address: "0x1000", patch: "FF", base: "00" },
      ],
    });
  });

  it("names the line and what is wrong with it", () => {
    expect(parseEntries("0x10 90")).toEqual({ error: 'line 1: write "address patch base", e.g. 0x1A2B 9090 7501' });
    expect(parseEntries("0x10 909 750")).toEqual({ error: "line 1: the patch bytes are not whole hex bytes" });
    expect(parseEntries("0x10 9090 75")).toEqual({ error: "line 1: patch and base differ in length" });
    expect(parseEntries("zz 90 75")).toEqual({ error: 'line 1: "zz" is not an address' });
    expect(parseEntries("  ")).toEqual({ error: "write at least one entry" });
  });

  it("formats stored entries back into the same lines, which the contract accepts", () => {
    const text = formatEntries([{ address: 0x1a2b, patch: "9090", base: "7501" }]);
    expect(text).toBe("0x1A2B 9090 7501");
    const parsed = parseEntries(text);
    expect(
      "entries" in parsed && patchSchema.parse({ title: "t", firmwareIds: ["F"], entries: parsed.entries }).entries,
    ).toEqual([{ address: 0x1a2b, patch: "9090", base: "7501" }]);
  });
});

describe("entries from two images", () => {
  const base = new Uint8Array(64).map((_, i) => i);

  it("joins changes across small gaps, writing the unchanged bytes between as themselves", () => {
    const patched = Uint8Array.from(base);
    patched[10] = 0xaa;
    patched[13] = 0xbb;
    patched[40] = 0xcc;
    expect(entriesFromImages(base, patched)).toEqual({
      entries: [
        { address: "0xA", patch: "AA0B0CBB", base: "0A0B0C0D" },
        { address: "0x28", patch: "CC", base: "28" },
      ],
    });
  });

  it("refuses images of different sizes, identical images and images that are not a patch apart", () => {
    expect(entriesFromImages(base, base.subarray(1))).toEqual({ error: "the images differ in size (64 and 63 bytes)" });
    expect(entriesFromImages(base, base)).toEqual({ error: "the images are identical" });
    const big = new Uint8Array(20_000);
    const scattered = big.map((_, i) => (i % 8 === 0 ? 1 : 0));
    expect(entriesFromImages(big, scattered)).toEqual({
      error: "more than 2000 changed runs: these images are not a patch apart",
    });
  });
});
