import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../../domain/tune/crc32";

/** A deterministic pseudo-random buffer (xorshift), so a failure can be reproduced. */
function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe("the domain's CRC-32", () => {
  it("equals zlib.crc32 on random buffers of every length up to 64 and on larger ones", () => {
    const lengths = [...Array.from({ length: 65 }, (_, i) => i), 255, 1000, 4093, 65536, 1 << 20];
    for (const length of lengths) {
      const bytes = randomBytes(length, length + 7);
      expect(crc32(bytes), `length ${length}`).toBe(zlib.crc32(bytes));
    }
  });

  it("continues from a seed as zlib.crc32 does, so chained ranges give the CRC of their concatenation", () => {
    for (let n = 0; n < 50; n++) {
      const bytes = randomBytes(100 + n * 37, n + 1);
      const seed = (n * 0x9e3779b1) >>> 0;
      expect(crc32(bytes, seed), `seed ${seed}`).toBe(zlib.crc32(bytes, seed));
      const cut = (n * 13) % bytes.length;
      expect(crc32(bytes.subarray(cut), crc32(bytes.subarray(0, cut)))).toBe(zlib.crc32(bytes));
    }
  });

  it("reads misaligned views the same as aligned ones", () => {
    const bytes = randomBytes(10_001, 99);
    for (let offset = 1; offset < 8; offset++)
      expect(crc32(bytes.subarray(offset))).toBe(zlib.crc32(bytes.subarray(offset)));
  });
});
