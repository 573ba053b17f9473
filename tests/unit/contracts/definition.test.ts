import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  checksumSchemeSchema,
  identifyRuleSchema,
  patchSchema,
  tuneDefinitionSchema,
} from "../../../contracts/tune-definition";

function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

const boost = {
  id: "boost_target",
  title: "Target boost",
  kind: "table2d",
  category: "boost",
  z: {
    address: "0x6851CE",
    bits: 16,
    signed: false,
    endian: "big",
    float: false,
    rows: 8,
    cols: 12,
    columnMajor: false,
    toPhysical: "X*0.01933677",
    toRaw: "X/0.01933677",
    unit: "psi",
    decimals: 2,
    min: 0,
    max: 40,
  },
  x: { count: 12, address: "0x6851B6", bits: 16, signed: true, endian: "big", toPhysical: "X/100", unit: "%" },
  y: { count: 8, labels: ["1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000"], unit: "rpm" },
};

describe("map definition schema", () => {
  it("accepts a definition with hex-string addresses and normalises addresses to numbers", () => {
    const doc = tuneDefinitionSchema.parse({
      firmwareId: "00003076501103",
      imageSize: 8388608,
      categories: [{ id: "boost", name: "Boost" }],
      items: [boost],
    });
    const item = doc.items[0];
    expect(item.z.address).toBe(0x6851ce);
    expect(item.kind === "table2d" && item.x && "address" in item.x && item.x.address).toBe(0x6851b6);
  });

  it("fills element defaults and parses its own output unchanged", () => {
    const doc = tuneDefinitionSchema.parse({
      firmwareId: "F",
      imageSize: 256,
      items: [
        { id: "c", title: "C", kind: "constant", z: { address: 4 } },
        { id: "f", title: "F", kind: "constant", z: { address: 8, float: true } },
      ],
    });
    expect(doc.items[0].z).toEqual({
      address: 4,
      bits: 8,
      signed: false,
      endian: "big",
      float: false,
      toPhysical: "X",
    });
    expect(doc.items[1].z.bits).toBe(32);
    expect(tuneDefinitionSchema.parse(doc)).toEqual(doc);
  });

  it("refuses unknown keys instead of dropping them", () => {
    expect(
      issues(tuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 256,
        items: [{ id: "c", title: "C", kind: "constant", z: { address: 4, scale: 2 } }],
      }),
    ).toEqual(['items.0.z: Unrecognized key: "scale"']);
  });

  it("takes a scaling as a string, leaving the check that it compiles to the domain", () => {
    const doc = tuneDefinitionSchema.parse({
      firmwareId: "F",
      imageSize: 256,
      items: [{ id: "c", title: "C", kind: "constant", z: { address: 4, toPhysical: "X*(2" } }],
    });
    expect(doc.items[0].z.toPhysical).toBe("X*(2");
  });

  it("refuses axes whose counts disagree with the table", () => {
    const bad = { ...boost, x: { ...boost.x, count: 10 } };
    expect(
      issues(tuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 8388608,
        categories: [{ id: "boost", name: "Boost" }],
        items: [bad],
      }),
    ).toEqual(["items.0.x.count: axis x has 10 entries but the table has 12 columns"]);
  });

  it("refuses an axis that has both labels and an address, or neither", () => {
    const both = { ...boost, y: { ...boost.y, address: 16 } };
    const neither = { ...boost, y: { count: 8, unit: "rpm" } };
    const doc = (item: unknown) => ({
      firmwareId: "F",
      imageSize: 8388608,
      categories: [{ id: "boost", name: "Boost" }],
      items: [item],
    });
    expect(issues(tuneDefinitionSchema, doc(both))).toEqual([
      "items.0.y: an axis with labels cannot also have address",
    ]);
    expect(issues(tuneDefinitionSchema, doc(neither))).toEqual([
      "items.0.y: an axis needs either labels or an address",
    ]);
  });

  it("refuses items beyond the image, duplicate ids and unknown categories", () => {
    const problems = issues(tuneDefinitionSchema, {
      firmwareId: "F",
      imageSize: 0x100,
      items: [
        { id: "a", title: "A", kind: "constant", category: "fuel", z: { address: "0xFF", bits: 16 } },
        { id: "a", title: "A again", kind: "constant", z: { address: 0 } },
      ],
    });
    expect(problems).toEqual([
      'items.0.category: item "a" names unknown category "fuel"',
      'items.0.z.address: item "a" z ends at 0x101, beyond the image size 0x100',
      'items.1.id: item id "a" is used twice',
    ]);
  });

  it("refuses a float element that is not 32 bits and a flag mask wider than its element", () => {
    expect(
      issues(tuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 256,
        items: [{ id: "c", title: "C", kind: "constant", z: { address: 0, float: true, bits: 16 } }],
      }),
    ).toEqual(["items.0.z.bits: float elements are 32 bits, got bits 16"]);
    expect(
      issues(tuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 256,
        items: [{ id: "f", title: "F", kind: "flag", z: { address: 0 }, mask: "0x100" }],
      }),
    ).toEqual(["items.0.mask: mask 0x100 does not fit 8 bits"]);
  });

  it("names the allowed kinds when the kind is unknown", () => {
    expect(
      issues(tuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 256,
        items: [{ id: "c", title: "C", kind: "table3d" }],
      }),
    ).toEqual(['items.0.kind: kind must be one of "constant", "flag", "enum", "table1d", "table2d"']);
  });
});

describe("checksum scheme schema", () => {
  it("fills the store size and endianness of the type", () => {
    const scheme = checksumSchemeSchema.parse({
      name: "CRC",
      type: "crc32-msb",
      ranges: [["0x0", "0xFF"]],
      store: { address: "0x100" },
    });
    expect(scheme.store).toEqual({ address: 0x100, size: 4, endian: "little" });
    expect(scheme.ranges).toEqual([[0, 0xff]]);
  });

  it("refuses a wrong store size, reversed ranges and ranges that split words", () => {
    expect(
      issues(checksumSchemeSchema, {
        name: "S",
        type: "subaru-sum32",
        ranges: [
          [0, 10],
          [20, 12],
        ],
        store: { address: 0x100, size: 2 },
      }),
    ).toEqual([
      "store.size: subaru-sum32 stores 4 bytes, got size 2",
      "ranges.0: subaru-sum32 reads 4-byte words but range 0x0-0xA is 11 bytes",
      "ranges.1: range 0x14-0xC ends before it starts",
    ]);
  });

  it("refuses an unknown type naming the known ones", () => {
    expect(
      issues(checksumSchemeSchema, { name: "S", type: "crc16", ranges: [[0, 1]], store: { address: 8 } })[0],
    ).toContain("type must be one of crc32, crc32-msb");
  });
});

describe("patch and identify schemas", () => {
  it("normalises hex and refuses entries whose patch and base differ in length", () => {
    const patch = patchSchema.parse({
      title: "P",
      firmwareIds: ["F"],
      entries: [{ address: "0x10", patch: "de ad", base: "0000" }],
    });
    expect(patch.entries[0]).toEqual({ address: 16, patch: "DEAD", base: "0000" });
    expect(patch.description).toBe("");
    expect(
      issues(patchSchema, { title: "P", firmwareIds: ["F"], entries: [{ address: 16, patch: "DEAD", base: "00" }] }),
    ).toEqual(["entries.0: patch is 2 bytes but base is 1 bytes at 0x10"]);
  });

  it("refuses overlapping entries within a patch and a patch for no firmware", () => {
    expect(
      issues(patchSchema, {
        title: "P",
        firmwareIds: ["F"],
        entries: [
          { address: 16, patch: "AABBCC", base: "000000" },
          { address: 18, patch: "DD", base: "00" },
        ],
      }),
    ).toEqual(["entries.1.address: entry at 0x12 overlaps the entry at 0x10"]);
    expect(
      issues(patchSchema, { title: "P", firmwareIds: [], entries: [{ address: 0, patch: "01", base: "00" }] }),
    ).toEqual(["firmwareIds: a patch names at least one firmware id"]);
  });

  it("needs exactly one of bytes or text in an identify rule", () => {
    expect(identifyRuleSchema.parse({ address: "0x100", text: "DEMO" })).toEqual({ address: 256, text: "DEMO" });
    expect(issues(identifyRuleSchema, { address: 0, bytes: "00", text: "A" })).toEqual([
      ": an identify rule needs exactly one of bytes or text",
    ]);
  });
});
