import { describe, expect, it } from "vitest";
import { type ElementType, readElement, writeElement } from "../../../../domain/tune/elements";
import { TuneError } from "../../../../domain/tune/errors";

const type = (bits: 8 | 16 | 32, signed: boolean, endian: "big" | "little", float = false): ElementType => ({
  bits,
  signed,
  endian,
  float,
});

describe("element reading and writing", () => {
  // Expected bytes come from node's Buffer writers, not from the code under test.
  const cases: Array<[string, ElementType, number, (b: Buffer, v: number) => void]> = [
    ["u8", type(8, false, "big"), 0xfe, (b, v) => b.writeUInt8(v, 1)],
    ["s8", type(8, true, "little"), -2, (b, v) => b.writeInt8(v, 1)],
    ["u16 big", type(16, false, "big"), 0xbeef, (b, v) => b.writeUInt16BE(v, 1)],
    ["u16 little", type(16, false, "little"), 0xbeef, (b, v) => b.writeUInt16LE(v, 1)],
    ["s16 big", type(16, true, "big"), -12345, (b, v) => b.writeInt16BE(v, 1)],
    ["s16 little", type(16, true, "little"), -12345, (b, v) => b.writeInt16LE(v, 1)],
    ["u32 big", type(32, false, "big"), 0xdeadbeef, (b, v) => b.writeUInt32BE(v, 1)],
    ["u32 little", type(32, false, "little"), 0xdeadbeef, (b, v) => b.writeUInt32LE(v, 1)],
    ["s32 big", type(32, true, "big"), -123456789, (b, v) => b.writeInt32BE(v, 1)],
    ["s32 little", type(32, true, "little"), -123456789, (b, v) => b.writeInt32LE(v, 1)],
    ["float big", type(32, false, "big", true), 3.5, (b, v) => b.writeFloatBE(v, 1)],
    ["float little", type(32, false, "little", true), -0.15625, (b, v) => b.writeFloatLE(v, 1)],
  ];

  it.each(cases)("writes and reads %s exactly as Buffer lays it out", (_name, element, value, reference) => {
    const expected = Buffer.alloc(8);
    reference(expected, value);
    const image = new Uint8Array(8);
    writeElement(image, 1, element, value);
    expect(Buffer.from(image).toString("hex")).toBe(expected.toString("hex"));
    expect(readElement(expected, 1, element)).toBe(value);
  });

  it("rounds floats to single precision", () => {
    const image = new Uint8Array(4);
    writeElement(image, 0, type(32, false, "big", true), 0.1);
    expect(readElement(image, 0, type(32, false, "big", true))).toBe(Math.fround(0.1));
  });

  it("refuses raw values the element cannot hold", () => {
    const image = new Uint8Array(4);
    expect(() => writeElement(image, 0, type(8, false, "big"), 256)).toThrow(
      "raw value 256 does not fit an unsigned 8-bit element at 0x0",
    );
    expect(() => writeElement(image, 0, type(16, true, "big"), -32769)).toThrow("does not fit a signed 16-bit element");
    expect(() => writeElement(image, 0, type(16, false, "big"), 1.5)).toThrow("raw value 1.5 is not an integer");
    expect(() => writeElement(image, 0, type(32, false, "big", true), Infinity)).toThrow("does not fit a 32-bit float");
  });

  it("refuses addresses outside the image, naming the address", () => {
    const image = new Uint8Array(16);
    const read = () => readElement(image, 0xf, type(16, false, "big"));
    expect(read).toThrow(TuneError);
    expect(read).toThrow("element at 0xF (2 bytes) lies outside the image of 16 bytes");
    expect(() => writeElement(image, -1, type(8, false, "big"), 0)).toThrow("element at -0x1 ");
  });
});
