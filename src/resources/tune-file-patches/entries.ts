/**
 * Patch entries as an admin writes them: one line per entry,
 * `address patch base` in hex (`0x1A2B 9090 7501`), and entries made by
 * diffing a stock image against a patched one in the browser, so that two
 * 8 MiB files need not travel to the server just to be compared.
 */
export interface EntryInput {
  address: string;
  patch: string;
  base: string;
}

export type Parsed = { entries: EntryInput[] } | { error: string };

const HEX = /^[0-9A-F]+$/;

export function parseEntries(text: string): Parsed {
  const entries: EntryInput[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const parts = line.split(/\s+/);
    if (parts.length !== 3) return { error: `line ${i + 1}: write "address patch base", e.g. 0x1A2B 9090 7501` };
    const [address, patch, base] = [parts[0], parts[1].toUpperCase(), parts[2].toUpperCase()];
    if (!/^(0x[0-9a-f]+|\d+)$/i.test(address)) return { error: `line ${i + 1}: "${address}" is not an address` };
    if (!HEX.test(patch) || patch.length % 2)
      return { error: `line ${i + 1}: the patch bytes are not whole hex bytes` };
    if (!HEX.test(base) || base.length % 2) return { error: `line ${i + 1}: the base bytes are not whole hex bytes` };
    if (patch.length !== base.length) return { error: `line ${i + 1}: patch and base differ in length` };
    entries.push({
      address: address.toLowerCase().startsWith("0x")
        ? `0x${address.slice(2).toUpperCase()}`
        : `0x${Number(address).toString(16).toUpperCase()}`,
      patch,
      base,
    });
  }
  if (entries.length === 0) return { error: "write at least one entry" };
  return { entries };
}

export function formatEntries(entries: readonly { address: number | string; patch: string; base: string }[]): string {
  return entries
    .map(
      (e) =>
        `${typeof e.address === "number" ? `0x${e.address.toString(16).toUpperCase()}` : e.address} ${e.patch} ${e.base}`,
    )
    .join("\n");
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();

/** Most entries an admin would review by hand; beyond it the two files are not a patch but a different calibration. */
export const MAX_DIFF_ENTRIES = 2000;

/**
 * Entries that turn `base` into `patched`: changed runs, joined across gaps of
 * at most `mergeGap` equal bytes (those are written as themselves, so the
 * entry stays exact while a typical patch stays a few lines).
 */
export function entriesFromImages(base: Uint8Array, patched: Uint8Array, mergeGap = 4): Parsed {
  if (base.length !== patched.length)
    return { error: `the images differ in size (${base.length} and ${patched.length} bytes)` };
  const entries: EntryInput[] = [];
  let start = -1;
  let end = -1;
  const close = () => {
    entries.push({
      address: `0x${start.toString(16).toUpperCase()}`,
      patch: hex(patched.subarray(start, end + 1)),
      base: hex(base.subarray(start, end + 1)),
    });
  };
  for (let i = 0; i < base.length; i++) {
    if (base[i] === patched[i]) continue;
    if (start >= 0 && i - end - 1 <= mergeGap) end = i;
    else {
      if (start >= 0) close();
      if (entries.length >= MAX_DIFF_ENTRIES)
        return { error: `more than ${MAX_DIFF_ENTRIES} changed runs: these images are not a patch apart` };
      start = end = i;
    }
  }
  if (start >= 0) close();
  if (entries.length === 0) return { error: "the images are identical" };
  return { entries };
}
