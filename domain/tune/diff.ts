/**
 * What changed between two images of the same firmware (usually stock and a
 * tune): byte ranges, and for each range the definition items it falls in
 * with their values before and after in physical units.
 *
 * The scan compares 32-bit words (misaligned images are copied once so that
 * it can), skipping equal 4 KiB chunks a word at a time and looking at bytes
 * only inside words that differ.
 */
import type { ChecksumScheme, TuneDefinition, TuneItem, TuneItemKind } from "../../contracts/tune-definition";
import { CHECKSUM_LAYOUT } from "../../contracts/tune-definition";
import { copyImage } from "./bytes";
import { elementBytes } from "./elements";
import { TuneError } from "./errors";
import { cellPosition, type ItemExtent, type ItemPart, itemExtents, readPartValue } from "./maps";

/** A changed run of bytes; `end` is inclusive, like checksum ranges. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface CellChange {
  row: number;
  col: number;
  before: number;
  after: number;
}

export interface ChangedItem {
  id: string;
  title: string;
  kind: TuneItemKind;
  /** `z` for the item's data, `x` or `y` for an axis read from the image. */
  part: ItemPart;
  unit?: string;
  /** Decimals the definition shows this part's values with. */
  decimals?: number;
  /** The cells of this part whose bytes differ inside the range. */
  cells: CellChange[];
}

export interface ChangedRange extends ByteRange {
  length: number;
  items: ChangedItem[];
  /** Checksums whose store lies in the range. */
  checksums: string[];
}

export interface DiffOptions {
  definition?: TuneDefinition;
  checksums?: readonly ChecksumScheme[];
  /** Ranges separated by at most this many equal bytes are reported as one. Default 4. */
  mergeGap?: number;
}

function sameSize(a: Uint8Array, b: Uint8Array): void {
  if (a.length !== b.length) {
    throw new TuneError("image_mismatch", `images differ in size: ${a.length} and ${b.length} bytes`, {
      sizes: [a.length, b.length],
    });
  }
}

function int32View(image: Uint8Array): Int32Array | null {
  return image.byteOffset % 4 === 0 ? new Int32Array(image.buffer, image.byteOffset, image.length >>> 2) : null;
}

/** Images shorter than this are scanned as they are; a longer misaligned one is copied first. */
const CHUNK = 4096;

/** A view whose buffer offset allows 32-bit views: the image itself, or a copy of a large misaligned one. */
function aligned(image: Uint8Array): Uint8Array {
  return image.byteOffset % 4 === 0 || image.length < CHUNK ? image : copyImage(image);
}

/** Changed byte ranges between two equally long images, merged across gaps of at most `mergeGap` equal bytes. */
export function changedRanges(beforeImage: Uint8Array, afterImage: Uint8Array, mergeGap = 4): ByteRange[] {
  sameSize(beforeImage, afterImage);
  const before = aligned(beforeImage);
  const after = aligned(afterImage);
  const ranges: ByteRange[] = [];
  let current: ByteRange | null = null;
  const mark = (address: number) => {
    if (current && address - current.end - 1 <= mergeGap) current.end = address;
    else {
      current = { start: address, end: address };
      ranges.push(current);
    }
  };
  const a32 = int32View(before);
  const b32 = int32View(after);
  for (let chunk = 0; chunk < before.length; chunk += CHUNK) {
    const end = Math.min(before.length, chunk + CHUNK);
    let i = chunk;
    if (a32 && b32) {
      // Equal words (most of an image) are skipped four at a time; bytes are looked at only inside words that differ.
      const last = end >> 2;
      for (let w = chunk >> 2; ; w++) {
        while (
          w + 3 < last &&
          a32[w] === b32[w] &&
          a32[w + 1] === b32[w + 1] &&
          a32[w + 2] === b32[w + 2] &&
          a32[w + 3] === b32[w + 3]
        )
          w += 4;
        while (w < last && a32[w] === b32[w]) w++;
        if (w >= last) break;
        for (let k = w << 2; k < (w + 1) << 2; k++) if (before[k] !== after[k]) mark(k);
      }
      i = last << 2;
    }
    for (; i < end; i++) if (before[i] !== after[i]) mark(i);
  }
  return ranges;
}

/** Item extents sorted by start, with the furthest end seen so far, for overlap queries. */
export interface ExtentIndex {
  extents: ItemExtent[];
  reach: number[];
}

export function indexExtents(items: readonly TuneItem[]): ExtentIndex {
  const extents = items.flatMap(itemExtents).sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  let furthest = 0;
  for (const e of extents) reach.push((furthest = Math.max(furthest, e.end)));
  return { extents, reach };
}

/** Extents overlapping [start, end] (inclusive), in address order. */
export function overlapping(index: ExtentIndex, start: number, end: number): ItemExtent[] {
  const { extents, reach } = index;
  let lo = 0;
  let hi = extents.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (extents[mid].start <= end) lo = mid + 1;
    else hi = mid;
  }
  const found: ItemExtent[] = [];
  for (let i = lo - 1; i >= 0 && reach[i] > start; i--) if (extents[i].end > start) found.push(extents[i]);
  return found.reverse();
}

function changedCells(
  before: Uint8Array,
  after: Uint8Array,
  extent: ItemExtent,
  start: number,
  end: number,
): CellChange[] {
  const size = elementBytes(extent.element);
  const first = Math.max(0, Math.floor((start - extent.start) / size));
  const last = Math.min(extent.count - 1, Math.floor((end - extent.start) / size));
  const cells: CellChange[] = [];
  for (let index = first; index <= last; index++) {
    const address = extent.start + index * size;
    let differs = false;
    for (let k = 0; k < size; k++) differs ||= before[address + k] !== after[address + k];
    if (!differs) continue;
    cells.push({
      ...cellPosition(extent, index),
      before: readPartValue(before, extent, index),
      after: readPartValue(after, extent, index),
    });
  }
  return cells;
}

/** Changed ranges between two images, attributed to definition items and checksum stores. */
export function diffImages(before: Uint8Array, after: Uint8Array, options: DiffOptions = {}): ChangedRange[] {
  const ranges = changedRanges(before, after, options.mergeGap ?? 4);
  const index = options.definition ? indexExtents(options.definition.items) : null;
  const stores = (options.checksums ?? []).map((s) => ({
    name: s.name,
    start: s.store.address,
    end: s.store.address + CHECKSUM_LAYOUT[s.type].storeSize - 1,
  }));
  return ranges.map(({ start, end }) => {
    const items: ChangedItem[] = [];
    if (index) {
      for (const extent of overlapping(index, start, end)) {
        const cells = changedCells(before, after, extent, start, end);
        if (cells.length === 0) continue;
        const { unit, decimals } = extent.element;
        items.push({
          id: extent.item.id,
          title: extent.item.title,
          kind: extent.item.kind,
          part: extent.part,
          ...(unit !== undefined && { unit }),
          ...(decimals !== undefined && { decimals }),
          cells,
        });
      }
    }
    const checksums = stores.filter((s) => s.start <= end && s.end >= start).map((s) => s.name);
    return { start, end, length: end - start + 1, items, checksums };
  });
}

/** Ids of the items (data or axes) with a value that reads differently in the two images, in definition order. */
export function changedItemIds(before: Uint8Array, after: Uint8Array, definition: TuneDefinition): string[] {
  const changed = new Set<string>();
  for (const range of diffImages(before, after, { definition })) {
    for (const item of range.items)
      if (item.cells.some((cell) => !Object.is(cell.before, cell.after))) changed.add(item.id);
  }
  return definition.items.filter((item) => changed.has(item.id)).map((item) => item.id);
}

/** One item's change between two images, in a line: how many cells moved and by how much. */
export interface ItemChangeSummary {
  id: string;
  title: string;
  unit: string | null;
  /** Cells whose value reads differently (a cell split over two ranges counts once). */
  cells: number;
  /** The largest and the mean absolute change of those cells, in the item's physical unit. */
  maxDelta: number;
  meanDelta: number;
}

/**
 * Per item, what moved (the data and the axes read from the image together), in address
 * order: what a customer reads of a revision — "Ignition timing: 48 cells, up to 2.3°" — without
 * the bytes. Ranges without a definition say nothing here.
 */
export function summarizeChanges(ranges: readonly ChangedRange[]): ItemChangeSummary[] {
  const byItem = new Map<string, { title: string; unit: string | null; deltas: Map<string, number> }>();
  for (const range of ranges) {
    for (const item of range.items) {
      const entry = byItem.get(item.id) ?? {
        title: item.title,
        unit: item.unit ?? null,
        deltas: new Map<string, number>(),
      };
      for (const cell of item.cells) {
        if (Object.is(cell.before, cell.after)) continue;
        const delta = Math.abs(cell.after - cell.before);
        entry.deltas.set(`${item.part}:${cell.row}:${cell.col}`, Number.isFinite(delta) ? delta : 0);
      }
      if (entry.deltas.size) byItem.set(item.id, entry);
    }
  }
  return [...byItem.entries()].map(([id, entry]) => {
    const deltas = [...entry.deltas.values()];
    const total = deltas.reduce((sum, delta) => sum + delta, 0);
    return {
      id,
      title: entry.title,
      unit: entry.unit,
      cells: deltas.length,
      maxDelta: Math.max(...deltas),
      meanDelta: total / deltas.length,
    };
  });
}
