import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  type ChecksumSchemeInput,
  type ChecksumType,
  checksumSchemeSchema,
} from "../../../../contracts/tune-definition";
import { computeChecksum, fixAll, verifyAll } from "../../../../domain/tune/checksums";

const scheme = (input: Partial<ChecksumSchemeInput> & { type: ChecksumType }) =>
  checksumSchemeSchema.parse({ name: input.type, ranges: [[0, 15]], store: { address: 0x40 }, ...input });

function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

// Reference implementations, deliberately naive (bit by bit, byte by byte) so they share nothing with the code under test.
function crc32MsbBitwise(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}
function bytesOf(image: Uint8Array, start: number, end: number): number[] {
  return Array.from(image.subarray(start, end + 1));
}
function byteSum(bytes: number[]): number {
  return bytes.reduce((a, b) => a + b, 0) % 2 ** 32;
}
function word16LeSum(bytes: number[]): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 2) sum += bytes[i] + 256 * bytes[i + 1];
  return sum % 2 ** 32;
}
function word32BeSum(bytes: number[]): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 4)
    sum += bytes[i] * 2 ** 24 + bytes[i + 1] * 2 ** 16 + bytes[i + 2] * 2 ** 8 + bytes[i + 3];
  return sum % 2 ** 32;
}
function word32BeXor(bytes: number[]): number {
  let x = 0;
  for (let i = 0; i < bytes.length; i += 4)
    x ^= (bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3];
  return x >>> 0;
}

describe("checksum test vectors", () => {
  it("crc32 equals zlib's CRC-32 over the concatenated ranges", () => {
    const image = pseudoRandom(4096, 1);
    const s = scheme({
      type: "crc32",
      ranges: [
        [3, 1000],
        [2000, 2999],
      ],
      store: { address: 4000 },
    });
    const expected = zlib.crc32(Buffer.concat([image.subarray(3, 1001), image.subarray(2000, 3000)]));
    expect(computeChecksum(image, s)).toEqual([expected]);
  });

  it("crc32-msb matches the CRC-32/POSIX check value before its final XOR", () => {
    const image = new Uint8Array(32);
    image.set(new TextEncoder().encode("123456789"));
    // CRC-32/POSIX (poly 04C11DB7, init 0, not reflected) checks to 0x765E7680 after its final XOR with FFFFFFFF.
    expect(computeChecksum(image, scheme({ type: "crc32-msb", ranges: [[0, 8]], store: { address: 16 } }))).toEqual([
      0x89a1897f,
    ]);
  });

  it("crc32-msb equals a bitwise reference over chained ranges", () => {
    const image = pseudoRandom(3000, 2);
    const s = scheme({
      type: "crc32-msb",
      ranges: [
        [1, 1200],
        [1500, 2222],
      ],
      store: { address: 2900 },
    });
    expect(computeChecksum(image, s)).toEqual([
      crc32MsbBitwise(Uint8Array.from([...bytesOf(image, 1, 1200), ...bytesOf(image, 1500, 2222)])),
    ]);
  });

  it("word16-sum-inverse sums little-endian 16-bit words and stores the sum and its inverse", () => {
    const image = new Uint8Array(32);
    image.set([0x01, 0x02, 0x03, 0x04, 0xff, 0xff], 2);
    // 0x0201 + 0x0403 + 0xFFFF = 0x10603
    expect(
      computeChecksum(image, scheme({ type: "word16-sum-inverse", ranges: [[2, 7]], store: { address: 16 } })),
    ).toEqual([0x10603, 0xfffef9fc]);
  });

  it("byte-sum-inverse sums bytes and stores the sum and its inverse", () => {
    const image = new Uint8Array(32);
    image.set([1, 2, 3, 0xff], 5);
    expect(
      computeChecksum(image, scheme({ type: "byte-sum-inverse", ranges: [[5, 8]], store: { address: 16 } })),
    ).toEqual([0x105, 0xfffffefa]);
  });

  it("subaru-sum32 stores 0x5AA5A55A minus the big-endian word sum, wrapping", () => {
    const image = new Uint8Array(32);
    image.set([0, 0, 0, 1, 0, 0, 0, 2], 0);
    expect(computeChecksum(image, scheme({ type: "subaru-sum32", ranges: [[0, 7]], store: { address: 16 } }))).toEqual([
      0x5aa5a557,
    ]);
    image.set([0x60, 0, 0, 0, 0, 0, 0, 0], 0);
    expect(computeChecksum(image, scheme({ type: "subaru-sum32", ranges: [[0, 7]], store: { address: 16 } }))).toEqual([
      0xfaa5a55a,
    ]);
  });

  it("nissan-sum-xor sums and XORs big-endian words, skipping its own store inside the range", () => {
    const image = new Uint8Array(32);
    image.set([0x11, 0x22, 0x33, 0x44, 0x01, 0x01, 0x01, 0x01], 0);
    image.set([0xaa, 0xaa, 0xaa, 0xaa, 0xbb, 0xbb, 0xbb, 0xbb], 8); // the store: must not count
    // sum 0x11223344 + 0x01010101 = 0x12233445, xor = 0x10233245
    expect(
      computeChecksum(image, scheme({ type: "nissan-sum-xor", ranges: [[0, 15]], store: { address: 8 } })),
    ).toEqual([0x12233445, 0x10233245]);
  });

  it("byte-sum16 keeps the low 16 bits of the byte sum", () => {
    const image = new Uint8Array(400).fill(0xff);
    // 300 × 0xFF = 76500 = 0x12AD4
    expect(computeChecksum(image, scheme({ type: "byte-sum16", ranges: [[0, 299]], store: { address: 350 } }))).toEqual(
      [0x2ad4],
    );
  });

  it("byte-xor XORs bytes except its own store byte", () => {
    const image = new Uint8Array(8);
    image.set([0x0f, 0x77, 0xf0, 0x01], 0);
    expect(computeChecksum(image, scheme({ type: "byte-xor", ranges: [[0, 3]], store: { address: 1 } }))).toEqual([
      0xfe,
    ]);
  });

  it.each([0, 1, 2, 3])("fast word kernels agree with byte-by-byte references at start offset %i", (offset) => {
    const image = pseudoRandom(70_000, 3 + offset);
    const start = 100 + offset;
    const end = start + 65_536 - 1;
    const bytes = bytesOf(image, start, end);
    const store = { address: 69_000 };
    const compute = (type: ChecksumType) => computeChecksum(image, scheme({ type, ranges: [[start, end]], store }));
    expect(compute("byte-sum-inverse")).toEqual([byteSum(bytes), ~byteSum(bytes) >>> 0]);
    expect(compute("byte-sum16")).toEqual([byteSum(bytes) % 0x10000]);
    expect(compute("word16-sum-inverse")).toEqual([word16LeSum(bytes), ~word16LeSum(bytes) >>> 0]);
    expect(compute("subaru-sum32")).toEqual([(0x5aa5a55a - word32BeSum(bytes) + 2 ** 32) % 2 ** 32]);
    expect(compute("nissan-sum-xor")).toEqual([word32BeSum(bytes), word32BeXor(bytes)]);
    expect(compute("byte-xor")).toEqual([bytes.reduce((a, b) => a ^ b, 0)]);
    expect(compute("crc32-msb")).toEqual([crc32MsbBitwise(Uint8Array.from(bytes))]);
  });

  it("gives the same results for an image that is a misaligned view of a larger buffer", () => {
    const backing = pseudoRandom(20_001, 9);
    const view = backing.subarray(1);
    const copy = Uint8Array.from(view);
    const schemes = (["byte-sum-inverse", "nissan-sum-xor", "byte-xor", "crc32"] as const).map((type) =>
      scheme({ type, name: type, ranges: [[0, 15_999]], store: { address: 19_000 } }),
    );
    expect(verifyAll(view, schemes)).toEqual(verifyAll(copy, schemes));
  });
});

describe("verifying and fixing", () => {
  it("reports stored and computed values as hex, stores in the scheme's byte order", () => {
    const image = new Uint8Array(64);
    image.set([1, 2, 3, 0xff], 0);
    const s = scheme({ type: "byte-sum-inverse", ranges: [[0, 3]], store: { address: 16, endian: "big" } });
    expect(verifyAll(image, [s])).toEqual([
      {
        name: "byte-sum-inverse",
        type: "byte-sum-inverse",
        valid: false,
        stored: "0x00000000/0x00000000",
        computed: "0x00000105/0xFFFFFEFA",
        storeAddress: 16,
      },
    ]);
    fixAll(image, [s]);
    expect(Array.from(image.subarray(16, 24))).toEqual([0, 0, 1, 5, 0xff, 0xff, 0xfe, 0xfa]);
    expect(verifyAll(image, [s])[0].valid).toBe(true);
  });

  it("stores crc32 in the chosen byte order, matching zlib", () => {
    const image = pseudoRandom(256, 5);
    const s = scheme({ type: "crc32", ranges: [[0, 199]], store: { address: 200, endian: "little" } });
    fixAll(image, [s]);
    expect(Buffer.from(image).readUInt32LE(200)).toBe(zlib.crc32(image.subarray(0, 200)));
  });

  it("fixes inner schemes before outer ones, whatever order they are listed in", () => {
    const image = pseudoRandom(1024, 6);
    const outer = scheme({ name: "outer", type: "crc32", ranges: [[0, 1019]], store: { address: 1020 } });
    const middle = scheme({ name: "middle", type: "word16-sum-inverse", ranges: [[0, 511]], store: { address: 600 } });
    const inner = scheme({ name: "inner", type: "byte-sum16", ranges: [[0, 255]], store: { address: 300 } });
    const report = fixAll(image, [outer, middle, inner]);
    expect(report.passes).toBe(1);
    expect(report.fixed.sort()).toEqual(["inner", "middle", "outer"]);
    expect(report.results.map((r) => [r.name, r.valid])).toEqual([
      ["outer", true],
      ["middle", true],
      ["inner", true],
    ]);
    expect(verifyAll(image, [outer, middle, inner]).every((r) => r.valid)).toBe(true);
  });

  it("repeats passes until a cycle of schemes settles", () => {
    const image = pseudoRandom(256, 7);
    // Each covers the other's store; a sum-with-inverse store always adds 4 × 0xFF to a byte sum, so this settles.
    const a = scheme({ name: "a", type: "byte-sum-inverse", ranges: [[0, 127]], store: { address: 100 } });
    const b = scheme({ name: "b", type: "byte-sum-inverse", ranges: [[64, 255]], store: { address: 40 } });
    const report = fixAll(image, [a, b]);
    expect(report.passes).toBe(2);
    expect(verifyAll(image, [a, b]).every((r) => r.valid)).toBe(true);
  });

  it("refuses a layout that never settles", () => {
    const image = pseudoRandom(256, 8);
    const a = scheme({ name: "a", type: "crc32", ranges: [[0, 127]], store: { address: 100 } });
    const b = scheme({ name: "b", type: "crc32", ranges: [[64, 255]], store: { address: 40 } });
    expect(() => fixAll(image, [a, b], { maxPasses: 5 })).toThrow(/checksums did not settle after 5 passes: a/);
  });

  it("refuses ranges and stores outside the image, naming the scheme", () => {
    const image = new Uint8Array(64);
    expect(() =>
      verifyAll(image, [scheme({ name: "late", type: "byte-xor", ranges: [[0, 64]], store: { address: 10 } })]),
    ).toThrow('checksum "late" range 0x0-0x40 lies outside the image of 64 bytes');
    expect(() =>
      verifyAll(image, [scheme({ name: "store", type: "crc32", ranges: [[0, 7]], store: { address: 62 } })]),
    ).toThrow('checksum "store" stores at 0x3E, outside the image of 64 bytes');
  });

  it("fixes a misaligned view in place", () => {
    const backing = pseudoRandom(9001, 10);
    const view = backing.subarray(1);
    const s = scheme({ type: "nissan-sum-xor", ranges: [[0, 7999]], store: { address: 8100 } });
    fixAll(view, [s]);
    expect(verifyAll(Uint8Array.from(view), [s])[0].valid).toBe(true);
  });
});
