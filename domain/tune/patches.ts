/**
 * Tune-file patches: byte edits with the bytes they replace (contracts/tune-definition.ts).
 *
 * A patch is `applied` when every entry holds its patch bytes, `absent` when
 * every entry holds its base bytes, and `conflict` otherwise. Only absent
 * patches are applied and only applied patches are removed; anything else is
 * refused with the addresses at fault, because writing over bytes we did not
 * expect is how an engine computer gets bricked. Functions here return a new
 * image and leave the one given untouched, unless the caller owns the buffer
 * and asks for `inPlace` (an 8 MiB allocation costs more than the patching).
 */
import type { ChecksumScheme, Patch } from "../../contracts/tune-definition";
import { bytesEqualAt, copyImage, hexToBytes } from "./bytes";
import { type ChecksumOptions, type FixReport, fixAll } from "./checksums";
import { hexAddress, TuneError } from "./errors";

export type PatchState = "applied" | "absent" | "conflict";

export interface PatchStateResult {
  state: PatchState;
  /**
   * For a conflict: the entries holding neither their patch nor their base
   * bytes, or, when every entry holds one of them, the entries already
   * patched (a half-applied patch). Empty otherwise.
   */
  conflicts: number[];
}

interface DecodedEntry {
  address: number;
  patch: Uint8Array;
  base: Uint8Array;
}

function decode(patch: Patch): DecodedEntry[] {
  return patch.entries.map((entry) => ({
    address: entry.address,
    patch: hexToBytes(entry.patch),
    base: hexToBytes(entry.base),
  }));
}

function label(patch: Patch): string {
  return patch.id !== undefined ? `"${patch.title}" (${patch.id})` : `"${patch.title}"`;
}

function stateOf(image: Uint8Array, entries: DecodedEntry[]): PatchStateResult {
  const isPatched = entries.map((e) => bytesEqualAt(image, e.address, e.patch));
  const isBase = entries.map((e) => bytesEqualAt(image, e.address, e.base));
  if (isPatched.every(Boolean)) return { state: "applied", conflicts: [] };
  if (isBase.every(Boolean)) return { state: "absent", conflicts: [] };
  const neither = entries.filter((_, i) => !isPatched[i] && !isBase[i]).map((e) => e.address);
  const conflicts =
    neither.length > 0 ? neither : entries.filter((_, i) => isPatched[i] && !isBase[i]).map((e) => e.address);
  return { state: "conflict", conflicts };
}

/** Whether a patch is applied, absent or in conflict in an image. */
export function patchState(image: Uint8Array, patch: Patch): PatchStateResult {
  return stateOf(image, decode(patch));
}

export interface PatchOptions extends ChecksumOptions {
  /** The image's firmware: a patch that does not list it is refused. */
  firmwareId?: string;
  /** When given, every checksum is fixed after the change and the report returned. */
  checksums?: readonly ChecksumScheme[];
  /** Write into the image given instead of a copy (a refused patch still writes nothing). */
  inPlace?: boolean;
}

export interface PatchOutcome {
  image: Uint8Array;
  /** Each patch given and its state before the change. */
  patches: Array<{ id?: string; title: string; before: PatchState }>;
  checksums?: FixReport;
}

function checkFirmware(patches: readonly Patch[], firmwareId: string | undefined): void {
  if (firmwareId === undefined) return;
  const foreign = patches.filter((p) => !p.firmwareIds.includes(firmwareId));
  if (foreign.length > 0) {
    throw new TuneError(
      "patch_firmware",
      foreign.map((p) => `patch ${label(p)} is for ${p.firmwareIds.join(", ")}, not ${firmwareId}`).join("; "),
      { firmwareId, patches: foreign.map((p) => p.id ?? p.title) },
    );
  }
}

/** Refuses two patches (or two entries) that write the same bytes: the result would depend on their order. */
function checkOverlap(patches: readonly Patch[], decoded: DecodedEntry[][]): void {
  const spans = decoded.flatMap((entries, p) =>
    entries.map((e) => ({ p, start: e.address, end: e.address + e.patch.length })),
  );
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  let reach = spans[0];
  for (let i = 1; i < spans.length; i++) {
    const span = spans[i];
    if (reach && span.start < reach.end) {
      const first = patches[reach.p];
      const second = patches[span.p];
      const where = `${hexAddress(span.start)}-${hexAddress(Math.min(span.end, reach.end) - 1)}`;
      const message =
        reach.p === span.p
          ? `patch ${label(first)} writes ${where} twice`
          : `patches ${label(first)} and ${label(second)} both write ${where}`;
      throw new TuneError("patch_overlap", message, {
        patches: [first.id ?? first.title, second.id ?? second.title],
        start: span.start,
        end: Math.min(span.end, reach.end) - 1,
      });
    }
    if (!reach || span.end > reach.end) reach = span;
  }
}

/**
 * Applies the patches that are absent (applied ones are left as they are),
 * refusing the lot if any is in conflict, overlaps another, or is for another
 * firmware.
 */
export function applyPatches(image: Uint8Array, patches: readonly Patch[], options: PatchOptions = {}): PatchOutcome {
  checkFirmware(patches, options.firmwareId);
  const decoded = patches.map(decode);
  checkOverlap(patches, decoded);
  const states = decoded.map((entries) => stateOf(image, entries));
  const conflicting = states.flatMap((s, i) =>
    s.state === "conflict" ? [{ patch: patches[i], addresses: s.conflicts }] : [],
  );
  if (conflicting.length > 0) {
    throw new TuneError(
      "patch_conflict",
      conflicting
        .map(
          ({ patch, addresses }) =>
            `patch ${label(patch)} conflicts with the image at ${addresses.map(hexAddress).join(", ")}`,
        )
        .join("; "),
      { conflicts: conflicting.map(({ patch, addresses }) => ({ patch: patch.id ?? patch.title, addresses })) },
    );
  }
  const out = options.inPlace ? image : copyImage(image);
  decoded.forEach((entries, i) => {
    if (states[i].state === "absent") for (const e of entries) out.set(e.patch, e.address);
  });
  return finish(out, patches, states, options);
}

/** Writes the base bytes of an applied patch back; an absent patch is left alone, a conflict refused. */
export function removePatch(image: Uint8Array, patch: Patch, options: PatchOptions = {}): PatchOutcome {
  checkFirmware([patch], options.firmwareId);
  const entries = decode(patch);
  const state = stateOf(image, entries);
  if (state.state === "conflict") {
    const changed = entries.filter((e) => !bytesEqualAt(image, e.address, e.patch)).map((e) => e.address);
    throw new TuneError(
      "patch_conflict",
      `patch ${label(patch)} is not fully applied, cannot remove it: ${changed.map(hexAddress).join(", ")}`,
      {
        conflicts: [{ patch: patch.id ?? patch.title, addresses: changed }],
      },
    );
  }
  const out = options.inPlace ? image : copyImage(image);
  if (state.state === "applied") for (const e of entries) out.set(e.base, e.address);
  return finish(out, [patch], [state], options);
}

function finish(
  out: Uint8Array,
  patches: readonly Patch[],
  states: PatchStateResult[],
  options: PatchOptions,
): PatchOutcome {
  const outcome: PatchOutcome = {
    image: out,
    patches: patches.map((p, i) => ({
      ...(p.id !== undefined && { id: p.id }),
      title: p.title,
      before: states[i].state,
    })),
  };
  if (options.checksums) outcome.checksums = fixAll(out, options.checksums, { crc32: options.crc32 });
  return outcome;
}
