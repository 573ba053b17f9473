/**
 * Tune engine figures on an 8 MiB generated image, each next to a
 * plain zlib.crc32 pass over the same 8 MiB: the memory-speed floor.
 *
 *   npx tsx bench/tune.ts
 *
 * Operations run interleaved, one of each per round, so that load from other
 * processes on the machine lands on all of them alike and the ratios to the
 * floor stay meaningful.
 */
import zlib from "node:zlib";
import { copyImage, crc32, diffImages } from "../domain/tune";
import { generateDemo } from "../server/seed/generator";
import { applyPatches, bake, verifyAll } from "../server/services/tune-engine";

interface Operation {
  name: string;
  target?: number;
  /** Untimed preparation before each timed run. */
  reset?: () => void;
  run: () => unknown;
}

const ROUNDS = 100;
const WARMUP = 5;

const demo = generateDemo({ itemCount: 2000, patchEntries: 1000 });
const { firmware, stock, patches, tune } = demo;
const entries = patches.reduce((n, p) => n + p.entries.length, 0);
// What a customer uploads for inspection: the tune with every patch applied and checksums fixed.
const inspected = bake({ stockDump: stock, tuneImage: tune.image, tuneStock: stock, patches, firmware }).image;
const changes = diffImages(stock, inspected, { definition: firmware.definition, checksums: firmware.checksums });
// A request handler owns its upload buffer, so patches go in place; resetting it is not part of the work.
const upload = copyImage(stock);

const operations: Operation[] = [
  { name: "zlib.crc32 over 8 MiB (floor)", run: () => zlib.crc32(stock) },
  // What a browser verifying a CRC-32 scheme pays: the domain's own table version, which the server replaces by zlib's.
  { name: "  domain crc32 (TypeScript) over 8 MiB", run: () => crc32(stock) },
  {
    name: `verify ${firmware.checksums.length} checksum schemes`,
    target: 5,
    run: () => verifyAll(stock, firmware.checksums),
  },
  {
    name: `apply ${entries} patch entries + fix`,
    target: 10,
    reset: () => upload.set(stock),
    run: () =>
      applyPatches(upload, patches, { firmwareId: firmware.firmwareId, checksums: firmware.checksums, inPlace: true }),
  },
  {
    name: "  same, into a new 8 MiB copy",
    run: () => applyPatches(stock, patches, { firmwareId: firmware.firmwareId, checksums: firmware.checksums }),
  },
  {
    name: `diff vs stock, map attribution`,
    target: 20,
    run: () => diffImages(stock, inspected, { definition: firmware.definition, checksums: firmware.checksums }),
  },
  {
    name: `bake (tune + ${patches.length} patches)`,
    target: 50,
    run: () => bake({ stockDump: stock, tuneImage: tune.image, tuneStock: stock, patches, firmware }),
  },
];

const samples = operations.map(() => [] as number[]);
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  operations.forEach((op, i) => {
    op.reset?.();
    const start = performance.now();
    op.run();
    const elapsed = performance.now() - start;
    if (round >= WARMUP) samples[i].push(elapsed);
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)];
const figures = operations.map((op, i) => {
  const sorted = samples[i].sort((a, b) => a - b);
  return { ...op, median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
});
const floor = figures[0].median;

console.log(
  `8 MiB image, ${firmware.definition.items.length} items, ${firmware.checksums.length} checksum schemes, ` +
    `${changes.length} changed ranges in the diff; ${ROUNDS} interleaved rounds`,
);
console.log("");
console.log(
  `${"".padEnd(38)}${"median ms".padStart(10)}${"p99 ms".padStart(10)}${"× floor".padStart(9)}${"target".padStart(9)}`,
);
let over = false;
for (const f of figures) {
  let verdict = "";
  if (f.target !== undefined) {
    verdict = f.p99 <= f.target ? "  ok" : f.median <= f.target ? "  ok at median, p99 over" : "  OVER";
    over ||= f.median > f.target;
  }
  console.log(
    f.name.padEnd(38) +
      f.median.toFixed(2).padStart(10) +
      f.p99.toFixed(2).padStart(10) +
      (f.median / floor).toFixed(1).padStart(9) +
      (f.target === undefined ? "" : `≤ ${f.target}`).padStart(9) +
      verdict,
  );
}
if (over) process.exitCode = 1;
