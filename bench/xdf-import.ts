/**
 * XDF import at the size the issue sets: the 3 MB MS45 XDF (a WinOLS export,
 * 4,121 items in 302 categories) imported in ≤ 1 s server side, next to the
 * XML parse alone, and the export back to XDF.
 *
 *   npx tsx bench/xdf-import.ts
 *
 * Reads ../shared/fixtures/definitions/ms45.xdf (not copied into the project).
 */
import { readFileSync } from "node:fs";
import { exportXdf, importXdf } from "../domain/tune";
import { parseXml } from "../domain/tune/xml";

const TARGET_MS = 1000;
const RUNS = 5;
const file = new URL("../../shared/fixtures/definitions/ms45.xdf", import.meta.url);
const text = readFileSync(file, "latin1");

function timed<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

const first = timed(() => importXdf(text, { firmwareId: "MS45" }));
const runs = Array.from({ length: RUNS - 1 }, () => timed(() => importXdf(text, { firmwareId: "MS45" })).ms);
const best = Math.min(first.ms, ...runs);
const { summary } = first.result;
if (summary.items !== 4121 || summary.skipped !== 0)
  throw new Error(`imported ${summary.items} items, skipped ${summary.skipped}`);
const xml = Math.min(...Array.from({ length: RUNS }, () => timed(() => parseXml(text)).ms));
const exported = timed(() => exportXdf(first.result.definition));
const reimport = timed(() => importXdf(exported.result, { firmwareId: "MS45" }));

const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
console.log(
  `MS45 XDF: ${(text.length / 1024 / 1024).toFixed(2)} MiB, ${summary.items} items (${Object.entries(summary.byKind)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ")}), ${first.result.definition.categories.length} categories`,
);
console.log(
  `  import, first run            ${fmt(first.ms)}   target ≤ ${TARGET_MS} ms: ${first.ms <= TARGET_MS ? "met" : "MISSED"}`,
);
console.log(`  import, best of ${RUNS}            ${fmt(best)}`);
console.log(`    of which the XML parse     ${fmt(xml)}`);
console.log(
  `  export to XDF                ${fmt(exported.ms)}   (${(exported.result.length / 1024 / 1024).toFixed(2)} MiB)`,
);
console.log(`  import of the export         ${fmt(reimport.ms)}   (${reimport.result.summary.items} items)`);
