/**
 * What the definition imports share (TunerPro XDF in ./xdf.ts, RomRaider and
 * EcuFlash in ./romraider.ts, A2L in ./a2l/): the result they answer, how one element is
 * skipped with its reason, item ids from titles, the item check, and the
 * summary with skips counted by reason.
 */
import type { ChecksumScheme, Patch, TuneDefinition, TuneItem, TuneItemKind } from "../../contracts/tune-definition";
import { checkedTuneItemSchema } from "./checked-schemas";
import { hexAddress } from "./errors";

export type DefinitionFormat = "xdf" | "xdf-1.x" | "romraider" | "ecuflash" | "a2l";

/** One element that was not imported, and why. */
export interface DefinitionSkipped {
  /** The element: XDFTABLE, XDFCONSTANT, XDFPATCH, XDFCHECKSUM… in an XDF; table or checksum in a RomRaider/EcuFlash file. */
  element: string;
  title?: string;
  uniqueId?: string;
  line: number;
  reason: string;
}

export interface DefinitionSummary {
  /** Items in the definition, by kind. */
  items: number;
  byKind: Record<TuneItemKind, number>;
  patches: number;
  checksums: number;
  skipped: number;
  /** Skips counted by reason, with numbers and quoted names blanked, most frequent first. */
  skippedReasons: Array<{ reason: string; count: number }>;
}

export interface DefinitionImport {
  format: DefinitionFormat;
  /** RomRaider/EcuFlash: the `<rom>` imported (its xmlid) and the roms it inherits from, nearest last. */
  rom?: { xmlId: string; inherits: string[] };
  definition: TuneDefinition;
  patches: Patch[];
  /** Checksums whose algorithm we have. */
  checksums: ChecksumScheme[];
  /** Elements skipped, each with the reason. */
  skipped: DefinitionSkipped[];
  /** Human-readable lines: every skip, then notes on imported items (an axis left out, labels filled in). */
  warnings: string[];
  summary: DefinitionSummary;
}

/** Why the element at hand cannot be imported; thrown inside one element's import and caught around it. */
export class Skip extends Error {}

export const skip = (reason: string): never => {
  throw new Skip(reason);
};

/** Runs `work`, prefixing the reason of a Skip with `part` (which axis, which entry). */
export function within<T>(part: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Skip) throw new Skip(`${part}: ${error.message}`);
    throw error;
  }
}

/** An id-safe form of a title. */
export function slug(text: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 100);
  return s || "item";
}

export class UniqueIds {
  private readonly used = new Set<string>();

  take(base: string): string {
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
    this.used.add(id);
    return id;
  }
}

/** A reason with its numbers, hex and quoted parts blanked, to count skips of the same kind. */
export function reasonKind(reason: string): string {
  return reason
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/gi, "<id>")
    .replace(/-?\b0x[0-9a-f]+\b/gi, "N")
    .replace(/-?\b\d+(\.\d+)?\b/g, "N");
}

/** One item through the item schema and the image bounds; Skip naming what is wrong. */
export function checkedItem(document: Record<string, unknown>, imageSize: number): TuneItem {
  const parsed = checkedTuneItemSchema.safeParse(document);
  if (!parsed.success) {
    skip(parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`).join("; "));
  }
  const item = parsed.data!;
  const cells = item.kind === "table1d" || item.kind === "table2d" ? item.z.rows * item.z.cols : 1;
  const end = item.z.address + (item.z.bits / 8) * cells;
  if (end > imageSize) skip(`its data ends at ${hexAddress(end)}, beyond the image size ${hexAddress(imageSize)}`);
  return item;
}

export function summarize(
  definition: TuneDefinition,
  patches: Patch[],
  checksums: ChecksumScheme[],
  skipped: DefinitionSkipped[],
): DefinitionSummary {
  const byKind: Record<TuneItemKind, number> = { constant: 0, flag: 0, enum: 0, table1d: 0, table2d: 0 };
  for (const item of definition.items) byKind[item.kind]++;
  const reasons = new Map<string, number>();
  for (const s of skipped) reasons.set(reasonKind(s.reason), (reasons.get(reasonKind(s.reason)) ?? 0) + 1);
  return {
    items: definition.items.length,
    byKind,
    patches: patches.length,
    checksums: checksums.length,
    skipped: skipped.length,
    skippedReasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
  };
}
