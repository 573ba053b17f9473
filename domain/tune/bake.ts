/**
 * Baking: the file flashed onto one vehicle. Start from the
 * vehicle's own stock read, carry over exactly the bytes the tune changed
 * against its stock, apply the chosen patches, fix every checksum until
 * stable, and verify independently. The server hashes the result.
 *
 * Only changed bytes are carried (no merging across gaps): the bytes between
 * two edits may be vehicle-specific in the dump (coding, adaptations) and must
 * stay the vehicle's.
 */
import type { ChecksumScheme, IdentifyRule, Patch } from "../../contracts/tune-definition";
import { copyImage } from "./bytes";
import { type ChecksumOptions, type ChecksumResult, fixAll, verifyAll } from "./checksums";
import { type ByteRange, changedRanges } from "./diff";
import { hexAddress, TuneError } from "./errors";
import { describeMismatches, identifyMismatches } from "./identify";
import { applyPatches, type PatchState } from "./patches";

export interface BakeFirmware {
  firmwareId: string;
  imageSize: number;
  identify: readonly IdentifyRule[];
  checksums: readonly ChecksumScheme[];
}

/** Named images rather than five positional arguments: three of them are Uint8Arrays and easy to swap. */
export interface BakeInput extends ChecksumOptions {
  /** The vehicle's own read of its ECU. */
  stockDump: Uint8Array;
  /** The tune as the dealer made it. */
  tuneImage: Uint8Array;
  /** The stock image the tune was made from. */
  tuneStock: Uint8Array;
  patches?: readonly Patch[];
  firmware: BakeFirmware;
}

export interface BakeReport {
  firmwareId: string;
  /** Byte ranges copied from the tune (inclusive ends). */
  carried: ByteRange[];
  carriedBytes: number;
  /**
   * Carried ranges where the vehicle's dump differed from the tune's stock
   * before baking (outside checksum stores): the tune's bytes replaced the
   * vehicle's there, worth a look by the dealer.
   */
  baseMismatches: ByteRange[];
  patches: Array<{ id?: string; title: string; before: PatchState }>;
  fixPasses: number;
  checksums: ChecksumResult[];
}

export interface BakeResult {
  image: Uint8Array;
  report: BakeReport;
}

function checkImage(name: string, image: Uint8Array, firmware: BakeFirmware): void {
  if (image.length !== firmware.imageSize) {
    throw new TuneError(
      "image_mismatch",
      `${name} is ${image.length} bytes but firmware ${firmware.firmwareId} images are ${firmware.imageSize} bytes`,
      { image: name, size: image.length, expected: firmware.imageSize },
    );
  }
  const mismatches = identifyMismatches(image, firmware.identify);
  if (mismatches.length > 0) {
    throw new TuneError(
      "image_mismatch",
      `${name} is not firmware ${firmware.firmwareId}: ${describeMismatches(mismatches)}`,
      {
        image: name,
        mismatches,
      },
    );
  }
}

function insideStore(address: number, schemes: readonly ChecksumScheme[]): boolean {
  return schemes.some((s) => address >= s.store.address && address < s.store.address + s.store.size);
}

/** Sub-ranges of `carried` where `dump` and `tuneStock` disagree, ignoring checksum stores. */
function mismatchesUnder(
  carried: ByteRange[],
  dump: Uint8Array,
  tuneStock: Uint8Array,
  schemes: readonly ChecksumScheme[],
): ByteRange[] {
  const out: ByteRange[] = [];
  for (const { start, end } of carried) {
    let open: ByteRange | null = null;
    for (let a = start; a <= end; a++) {
      if (dump[a] !== tuneStock[a] && !insideStore(a, schemes)) {
        if (open && open.end === a - 1) open.end = a;
        else out.push((open = { start: a, end: a }));
      }
    }
  }
  return out;
}

export function bake(input: BakeInput): BakeResult {
  const { stockDump, tuneImage, tuneStock, firmware } = input;
  const crc = { crc32: input.crc32 };
  const patches = input.patches ?? [];
  checkImage("the vehicle's dump", stockDump, firmware);
  checkImage("the tune", tuneImage, firmware);
  checkImage("the tune's stock image", tuneStock, firmware);

  // A dump that fails its own checksums is a bad read (or a wrong definition): never build on it.
  const failing = verifyAll(stockDump, firmware.checksums, crc).filter((r) => !r.valid);
  if (failing.length > 0) {
    throw new TuneError(
      "checksum_invalid",
      `the vehicle's dump fails ${failing
        .map((r) => `checksum "${r.name}" (stored ${r.stored}, computed ${r.computed})`)
        .join(", ")}; the read may be corrupt`,
      { checksums: failing },
    );
  }

  const carried = changedRanges(tuneStock, tuneImage, 0);
  const baseMismatches = mismatchesUnder(carried, stockDump, tuneStock, firmware.checksums);
  const image = copyImage(stockDump);
  let carriedBytes = 0;
  for (const { start, end } of carried) {
    image.set(tuneImage.subarray(start, end + 1), start);
    carriedBytes += end - start + 1;
  }

  const patched = applyPatches(image, patches, { firmwareId: firmware.firmwareId, inPlace: true });
  const fix = fixAll(image, firmware.checksums, crc);
  // Verify from scratch rather than trusting the fixer's own bookkeeping.
  const checksums = verifyAll(image, firmware.checksums, crc);
  const invalid = checksums.filter((r) => !r.valid);
  if (invalid.length > 0) {
    throw new TuneError(
      "checksum_invalid",
      `baked image fails ${invalid.map((r) => `"${r.name}" at ${hexAddress(r.storeAddress)}`).join(", ")} after fixing`,
      { checksums: invalid },
    );
  }
  return {
    image,
    report: {
      firmwareId: firmware.firmwareId,
      carried,
      carriedBytes,
      baseMismatches,
      patches: patched.patches,
      fixPasses: fix.passes,
      checksums,
    },
  };
}
