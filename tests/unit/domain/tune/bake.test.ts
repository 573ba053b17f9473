import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CHECKSUM_LAYOUT } from "../../../../contracts/tune-definition";
import { fixAll, verifyAll } from "../../../../domain/tune/checksums";
import { changedRanges } from "../../../../domain/tune/diff";
import { TuneError } from "../../../../domain/tune/errors";
import { patchState } from "../../../../domain/tune/patches";
import { generateDemo } from "../../../../server/seed/generator";
import { bake } from "../../../../server/services/tune-engine";
import { thrownBy } from "../../support/thrown";

const demo = generateDemo({ size: 0x10000 });
const { firmware, stock, tune, patches } = demo;

/** A vehicle's read: stock with a few vehicle-specific bytes (coding) and valid checksums, as a real read has. */
function vehicleDump(): Uint8Array {
  const dump = stock.slice();
  dump.set([0x57, 0x42, 0x41, 0x31], 0x300); // coding bytes in the program area
  fixAll(dump, firmware.checksums);
  return dump;
}

function insideAny(address: number, spans: Array<[number, number]>): boolean {
  return spans.some(([start, end]) => address >= start && address <= end);
}

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

describe("baking", () => {
  it("produces an image that verifies, with its SHA-256", () => {
    const result = bake({ stockDump: vehicleDump(), tuneImage: tune.image, tuneStock: stock, firmware });
    expect(verifyAll(result.image, firmware.checksums).every((r) => r.valid)).toBe(true);
    expect(result.sha256).toBe(createHash("sha256").update(result.image).digest("hex"));
    expect(result.report.checksums.every((r) => r.valid)).toBe(true);
    expect(result.report.baseMismatches).toEqual([]);
  });

  it("changes only the tune's bytes and checksum stores, keeping the vehicle's own bytes", () => {
    const dump = vehicleDump();
    const result = bake({ stockDump: dump, tuneImage: tune.image, tuneStock: stock, firmware });
    const tuneBytes = changedRanges(stock, tune.image, 0).map(({ start, end }): [number, number] => [start, end]);
    const stores = firmware.checksums.map((s): [number, number] => [
      s.store.address,
      s.store.address + CHECKSUM_LAYOUT[s.type].storeSize - 1,
    ]);
    for (const { start, end } of changedRanges(dump, result.image, 0)) {
      for (let a = start; a <= end; a++) {
        expect(insideAny(a, tuneBytes) || insideAny(a, stores), `byte 0x${a.toString(16)} changed`).toBe(true);
        if (insideAny(a, tuneBytes) && !insideAny(a, stores)) expect(result.image[a]).toBe(tune.image[a]);
      }
    }
    expect(Array.from(result.image.subarray(0x300, 0x304))).toEqual([0x57, 0x42, 0x41, 0x31]);
    expect(result.report.carriedBytes).toBe(tuneBytes.reduce((n, [s, e]) => n + e - s + 1, 0));
  });

  it("applies the chosen patches and reports their state before", () => {
    const result = bake({
      stockDump: vehicleDump(),
      tuneImage: tune.image,
      tuneStock: stock,
      patches: patches.slice(0, 2),
      firmware,
    });
    expect(patches.slice(0, 2).map((p) => patchState(result.image, p).state)).toEqual(["applied", "applied"]);
    expect(patchState(result.image, patches[2]).state).toBe("absent");
    expect(result.report.patches.map((p) => p.before)).toEqual(["absent", "absent"]);
    expect(verifyAll(result.image, firmware.checksums).every((r) => r.valid)).toBe(true);
  });

  it("reports carried ranges where the vehicle's dump differed from the tune's stock", () => {
    const [first] = changedRanges(stock, tune.image, 0).filter(({ start }) => start > 0x8100);
    const dump = stock.slice();
    dump[first.start] ^= 0xff;
    fixAll(dump, firmware.checksums);
    const result = bake({ stockDump: dump, tuneImage: tune.image, tuneStock: stock, firmware });
    expect(result.report.baseMismatches).toEqual([{ start: first.start, end: first.start }]);
    expect(result.image[first.start]).toBe(tune.image[first.start]);
  });

  it("refuses a dump of the wrong size or of another firmware", () => {
    const short = refusal(() =>
      bake({ stockDump: stock.subarray(0, 0x8000), tuneImage: tune.image, tuneStock: stock, firmware }),
    );
    expect(short.code).toBe("image_mismatch");
    expect(short.message).toBe("the vehicle's dump is 32768 bytes but firmware DEMO-ECU-0001 images are 65536 bytes");
    const other = vehicleDump();
    other[0x101] = 0x58;
    expect(() => bake({ stockDump: other, tuneImage: tune.image, tuneStock: stock, firmware })).toThrow(
      `the vehicle's dump is not firmware DEMO-ECU-0001: at 0x100 expected "DEMO-ECU-0001", found 44584D4F2D4543552D30303031`,
    );
  });

  it("refuses a dump whose checksums fail, naming them", () => {
    const corrupt = vehicleDump();
    corrupt[0x9000] ^= 1;
    const error = refusal(() => bake({ stockDump: corrupt, tuneImage: tune.image, tuneStock: stock, firmware }));
    expect(error.code).toBe("checksum_invalid");
    expect(error.message).toMatch(
      /^the vehicle's dump fails checksum "Map block A \(byte XOR\)" .*checksum "Calibration \(CRC-32\)" .*the read may be corrupt$/,
    );
  });

  it("refuses patches for another firmware", () => {
    const foreign = { ...patches[0], firmwareIds: ["OTHER"] };
    expect(() =>
      bake({ stockDump: vehicleDump(), tuneImage: tune.image, tuneStock: stock, patches: [foreign], firmware }),
    ).toThrow('patch "Pops and bangs" (pops-and-bangs) is for OTHER, not DEMO-ECU-0001');
  });
});
