/** Byte helpers shared by patches, identify rules, checksums and baking. */

export function hexToBytes(hex: string): Uint8Array {
  const compact = hex.replace(/\s+/g, "");
  const out = new Uint8Array(compact.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(compact.substr(i * 2, 2), 16);
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
