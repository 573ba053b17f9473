/**
 * Reading and writing one element (8/16/32-bit integer, signed or not, either
 * byte order, or IEEE-754 single) at an address of an image.
 *
 * Bytes are assembled by hand rather than through a DataView: these run for
 * every cell of every table in diffs and bakes, and the hand-written forms are
 * monomorphic and allocation-free.
 */
import type { ElementBits, Endian } from "../../contracts/tune-definition";
import { hexAddress, TuneError } from "./errors";

export interface ElementType {
  bits: ElementBits;
  signed: boolean;
  endian: Endian;
  float: boolean;
}

// One scratch word reinterpreted as float: same buffer, so host byte order never matters.
const scratch = new ArrayBuffer(4);
const scratchU32 = new Uint32Array(scratch);
const scratchF32 = new Float32Array(scratch);

export function elementBytes(type: ElementType): number {
  return type.bits >> 3;
}

function checkBounds(image: Uint8Array, address: number, size: number): void {
  if (!Number.isInteger(address) || address < 0 || address + size > image.length) {
    throw new TuneError(
      "out_of_bounds",
      `element at ${hexAddress(address)} (${size} byte${size === 1 ? "" : "s"}) lies outside the image of ${image.length} bytes`,
      { address, size, imageSize: image.length },
    );
  }
}

/** The unsigned bit pattern at `address`. */
function readBits(image: Uint8Array, address: number, bits: ElementBits, little: boolean): number {
  const a = address;
  if (bits === 8) return image[a];
  if (bits === 16) return little ? image[a] | (image[a + 1] << 8) : (image[a] << 8) | image[a + 1];
  return (
    (little
      ? image[a] | (image[a + 1] << 8) | (image[a + 2] << 16) | (image[a + 3] << 24)
      : (image[a] << 24) | (image[a + 1] << 16) | (image[a + 2] << 8) | image[a + 3]) >>> 0
  );
}

function writeBits(image: Uint8Array, address: number, bits: ElementBits, little: boolean, value: number): void {
  const a = address;
  if (bits === 8) {
    image[a] = value;
  } else if (bits === 16) {
    image[little ? a : a + 1] = value;
    image[little ? a + 1 : a] = value >>> 8;
  } else if (little) {
    image[a] = value;
    image[a + 1] = value >>> 8;
    image[a + 2] = value >>> 16;
    image[a + 3] = value >>> 24;
  } else {
    image[a] = value >>> 24;
    image[a + 1] = value >>> 16;
    image[a + 2] = value >>> 8;
    image[a + 3] = value;
  }
}

/** The raw value (before scaling) of the element at `address`. */
export function readElement(image: Uint8Array, address: number, type: ElementType): number {
  checkBounds(image, address, elementBytes(type));
  const bits = readBits(image, address, type.bits, type.endian === "little");
  if (type.float) {
    scratchU32[0] = bits;
    return scratchF32[0];
  }
  if (!type.signed) return bits;
  const shift = 32 - type.bits;
  return (bits << shift) >> shift;
}

/** Smallest and largest raw value the element type holds; for floats the largest finite single. */
export function rawLimits(type: ElementType): { min: number; max: number } {
  if (type.float) return { min: -3.4028234663852886e38, max: 3.4028234663852886e38 };
  if (type.signed) return { min: -(2 ** (type.bits - 1)), max: 2 ** (type.bits - 1) - 1 };
  return { min: 0, max: 2 ** type.bits - 1 };
}

/** Writes a raw value, refusing one the element type cannot hold exactly. */
export function writeElement(image: Uint8Array, address: number, type: ElementType, raw: number): void {
  checkBounds(image, address, elementBytes(type));
  const limits = rawLimits(type);
  const describe = () =>
    type.float ? "a 32-bit float" : `${type.signed ? "a signed" : "an unsigned"} ${type.bits}-bit element`;
  if (!Number.isFinite(raw) || raw < limits.min || raw > limits.max) {
    throw new TuneError("invalid_value", `raw value ${raw} does not fit ${describe()} at ${hexAddress(address)}`, {
      address,
      raw,
    });
  }
  let bits: number;
  if (type.float) {
    scratchF32[0] = raw;
    bits = scratchU32[0];
  } else {
    if (!Number.isInteger(raw)) {
      throw new TuneError(
        "invalid_value",
        `raw value ${raw} is not an integer for ${describe()} at ${hexAddress(address)}`,
        { address, raw },
      );
    }
    bits = raw >>> 0;
  }
  writeBits(image, address, type.bits, type.endian === "little", bits);
}

/** The float32 values either side of `value`, used to size one "raw step" of a float element. */
export function float32Neighbours(value: number): [number, number] {
  scratchF32[0] = value;
  const bits = scratchU32[0];
  if (value === 0) {
    scratchU32[0] = 1;
    const tiny = scratchF32[0];
    return [-tiny, tiny];
  }
  // For IEEE-754 the next representable magnitude is the next bit pattern.
  scratchU32[0] = bits + 1;
  const away = scratchF32[0];
  scratchU32[0] = bits - 1;
  const toward = scratchF32[0];
  return value > 0 ? [toward, away] : [away, toward];
}
