/** Byte helpers shared by patches, identify rules, checksums and baking. */

/** Value of one hex digit from its char code ('0'-'9', 'a'-'f', 'A'-'F'). */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

/** Bytes of a hex string as the schemas accept it (whitespace between bytes is ignored). */
export function hexToBytes(hex: string): Uint8Array {
  const compact = /\s/.test(hex) ? hex.replace(/\s+/g, "") : hex;
  const out = new Uint8Array(compact.length >> 1);
  for (let i = 0; i < out.length; i++)
    out[i] = (nibble(compact.charCodeAt(2 * i)) << 4) | nibble(compact.charCodeAt(2 * i + 1));
  return out;
}

const HEX_DIGITS = "0123456789ABCDEF";

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += HEX_DIGITS[bytes[i] >> 4] + HEX_DIGITS[bytes[i] & 15];
  return out;
}

/** Whether `image` holds exactly `bytes` at `address` (false when they would run past the end). */
export function bytesEqualAt(image: Uint8Array, address: number, bytes: Uint8Array): boolean {
  if (address < 0 || address + bytes.length > image.length) return false;
  for (let i = 0; i < bytes.length; i++) if (image[address + i] !== bytes[i]) return false;
  return true;
}

/**
 * A private copy whose buffer starts at offset 0, so the checksum and diff
 * kernels can always take 32-bit views of it. `new` + `set` rather than
 * `slice()`: on 8 MiB it is several times faster in V8.
 */
export function copyImage(image: Uint8Array): Uint8Array {
  const copy = new Uint8Array(image.length);
  copy.set(image);
  return copy;
}
