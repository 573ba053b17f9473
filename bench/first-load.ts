/**
 * The landing page's first load and the largest lazy chunks, from a production build.
 * `npx tsx bench/first-load.ts` builds into .test-data/first-load/dist; `--dist dist` reads an existing build.
 */
import path from "node:path";
import { buildSpa } from "../scripts/lib/build";
import { bundleReport, kB, largestModules, packagesOf } from "../scripts/lib/bundle-report";

const distArg = process.argv.indexOf("--dist");
const distDir = distArg > 0 ? path.resolve(process.argv[distArg + 1]) : path.resolve(".test-data/first-load/dist");
if (distArg < 0) {
  console.log(`Building into ${distDir}…`);
  buildSpa(distDir);
}

const report = bundleReport(distDir);
const row = (fileName: string) => {
  const size = report.sizes.get(fileName)!;
  return `  ${fileName.padEnd(48)} ${kB(size.raw).padStart(10)} ${kB(size.gzip).padStart(10)} ${kB(size.brotli).padStart(10)}`;
};
const header = `  ${"chunk".padEnd(48)} ${"raw".padStart(10)} ${"gzip".padStart(10)} ${"brotli".padStart(10)}`;

console.log(`\nLanding page (/) initial JavaScript: ${report.initial.length} chunks`);
console.log(header);
for (const fileName of report.initial) console.log(row(fileName));
const t = report.initialTotals;
console.log(
  `  ${"total".padEnd(48)} ${kB(t.raw).padStart(10)} ${kB(t.gzip).padStart(10)} ${kB(t.brotli).padStart(10)}`,
);
console.log("\n  What it holds (rendered bytes by package):");
for (const entry of packagesOf(report.initial.map((fileName) => report.chunks.get(fileName))))
  console.log(`    ${entry.name.padEnd(44)} ${kB(entry.bytes).padStart(10)}`);

const lazy = [...report.lazy].sort((a, b) => report.sizes.get(b)!.gzip - report.sizes.get(a)!.gzip);
console.log(`\nLargest lazy chunks (of ${lazy.length}):`);
console.log(header);
for (const fileName of lazy.slice(0, 10)) {
  console.log(row(fileName));
  console.log(`      ${largestModules(report.chunks.get(fileName), 3)}`);
}
