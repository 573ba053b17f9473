import { describe, expect, it } from "vitest";
import { checksumSchemeSchema, type PatchInput, patchSchema } from "../../../../contracts/tune-definition";
import { verifyAll } from "../../../../domain/tune/checksums";
import { TuneError } from "../../../../domain/tune/errors";
import { applyPatches, patchState, removePatch } from "../../../../domain/tune/patches";
import { thrownBy } from "../../support/thrown";

const patch = (input: Partial<PatchInput> & Pick<PatchInput, "entries">) =>
  patchSchema.parse({ title: "Pops", firmwareIds: ["FW1"], ...input });

function image(): Uint8Array {
  const out = new Uint8Array(64);
  out.set([0x10, 0x11, 0x12], 4);
  out.set([0x20, 0x21], 20);
  return out;
}

const pops = patch({
  id: "pops",
  entries: [
    { address: 4, patch: "AABBCC", base: "101112" },
    { address: 20, patch: "DDEE", base: "2021" },
  ],
});

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

describe("patch state", () => {
  it("is absent when every entry holds its base bytes and applied when every entry holds the patch", () => {
    const stock = image();
    expect(patchState(stock, pops)).toEqual({ state: "absent", conflicts: [] });
    const patched = applyPatches(stock, [pops]).image;
    expect(patchState(patched, pops)).toEqual({ state: "applied", conflicts: [] });
  });

  it("is a conflict naming the entries that hold neither", () => {
    const other = image();
    other[21] = 0x99;
    expect(patchState(other, pops)).toEqual({ state: "conflict", conflicts: [20] });
  });

  it("is a conflict naming the patched entries when a patch is half applied", () => {
    const half = image();
    half.set([0xaa, 0xbb, 0xcc], 4);
    expect(patchState(half, pops)).toEqual({ state: "conflict", conflicts: [4] });
  });

  it("is a conflict when an entry lies beyond the end of the image", () => {
    const outside = patch({ entries: [{ address: 63, patch: "0102", base: "0000" }] });
    expect(patchState(image(), outside)).toEqual({ state: "conflict", conflicts: [63] });
  });
});

describe("applying and removing patches", () => {
  it("writes patch bytes where absent, leaves the input untouched, and removes back to base", () => {
    const stock = image();
    const outcome = applyPatches(stock, [pops]);
    expect(Array.from(outcome.image.subarray(4, 7))).toEqual([0xaa, 0xbb, 0xcc]);
    expect(Array.from(outcome.image.subarray(20, 22))).toEqual([0xdd, 0xee]);
    expect(outcome.patches).toEqual([{ id: "pops", title: "Pops", before: "absent" }]);
    expect(stock).toEqual(image());
    const removed = removePatch(outcome.image, pops);
    expect(removed.image).toEqual(stock);
    expect(removed.patches[0].before).toBe("applied");
  });

  it("writes into the given buffer when asked to work in place, and not at all when refused", () => {
    const owned = image();
    const outcome = applyPatches(owned, [pops], { inPlace: true });
    expect(outcome.image).toBe(owned);
    expect(patchState(owned, pops).state).toBe("applied");
    const conflicting = image();
    conflicting[5] = 0x77;
    const before = conflicting.slice();
    expect(() => applyPatches(conflicting, [pops], { inPlace: true })).toThrow(TuneError);
    expect(conflicting).toEqual(before);
  });

  it("leaves an already applied patch as it is", () => {
    const once = applyPatches(image(), [pops]).image;
    const twice = applyPatches(once, [pops]);
    expect(twice.image).toEqual(once);
    expect(twice.patches[0].before).toBe("applied");
  });

  it("refuses a conflicting patch naming it and the addresses, and applies none of the others", () => {
    const other = image();
    other[5] = 0x77;
    const clean = patch({ id: "clean", title: "Clean", entries: [{ address: 40, patch: "01", base: "00" }] });
    const error = refusal(() => applyPatches(other, [clean, pops]));
    expect(error.code).toBe("patch_conflict");
    expect(error.message).toBe('patch "Pops" (pops) conflicts with the image at 0x4');
    expect(error.details).toEqual({ conflicts: [{ patch: "pops", addresses: [4] }] });
  });

  it("refuses two patches that write the same bytes, naming both", () => {
    const overlapping = patch({ id: "dtc", title: "DTC off", entries: [{ address: 21, patch: "00", base: "21" }] });
    const error = refusal(() => applyPatches(image(), [pops, overlapping]));
    expect(error.code).toBe("patch_overlap");
    expect(error.message).toBe('patches "Pops" (pops) and "DTC off" (dtc) both write 0x15-0x15');
  });

  it("refuses patches whose firmware ids do not include the image's firmware", () => {
    const error = refusal(() => applyPatches(image(), [pops], { firmwareId: "FW2" }));
    expect(error.code).toBe("patch_firmware");
    expect(error.message).toBe('patch "Pops" (pops) is for FW1, not FW2');
    expect(applyPatches(image(), [pops], { firmwareId: "FW1" }).patches[0].before).toBe("absent");
  });

  it("refuses to remove a patch that is not fully applied", () => {
    const half = image();
    half.set([0xaa, 0xbb, 0xcc], 4);
    expect(() => removePatch(half, pops)).toThrow('patch "Pops" (pops) is not fully applied, cannot remove it: 0x14');
  });

  it("fixes checksums after the change when schemes are given", () => {
    const crc = checksumSchemeSchema.parse({ name: "crc", type: "crc32", ranges: [[0, 59]], store: { address: 60 } });
    const outcome = applyPatches(image(), [pops], { checksums: [crc] });
    expect(outcome.checksums?.fixed).toEqual(["crc"]);
    expect(verifyAll(outcome.image, [crc])[0].valid).toBe(true);
  });
});
