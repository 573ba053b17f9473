/**
 * CRC-32 as zlib computes it (reflected, poly 0xEDB88320, initial and final
 * XOR 0xFFFFFFFF), in plain TypeScript so the browser can verify checksums.
 *
 * The checksum functions take a `Crc32` in their options: the server passes
 * Node's native zlib.crc32 (several times faster on megabyte images), and
 * everything else gets this slicing-by-8 table version.
 */

/** CRC-32 of `data` continuing from `seed` (the CRC of the bytes before it, 0 for none), like zlib.crc32. */
export type Crc32 = (data: Uint8Array, seed?: number) => number;

/** Table k maps a byte to its effect k bytes further on. */
const TABLES = (() => {
  const t = new Uint32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n];
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 255];
    }
  }
  return t;
})();

export const crc32: Crc32 = (data, seed = 0) => {
  const t = TABLES;
  let c = ~seed;
  let i = 0;
  const end = data.length;
  for (; i + 8 <= end; i += 8) {
    const a = c ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    c =
      t[1792 + (a & 255)] ^
      t[1536 + ((a >>> 8) & 255)] ^
      t[1280 + ((a >>> 16) & 255)] ^
      t[1024 + (a >>> 24)] ^
      t[768 + data[i + 4]] ^
      t[512 + data[i + 5]] ^
      t[256 + data[i + 6]] ^
      t[data[i + 7]];
  }
  for (; i < end; i++) c = (c >>> 8) ^ t[(c ^ data[i]) & 255];
  return ~c >>> 0;
};
