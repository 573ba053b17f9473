import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** One chunk as vite.config.ts's chunk-report plugin writes it to .vite/chunks.json. */
export interface ChunkInfo {
  fileName: string;
  name: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  modules: { id: string; bytes: number }[];
}

export interface ChunkSize {
  fileName: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface BundleReport {
  chunks: Map<string, ChunkInfo>;
  sizes: Map<string, ChunkSize>;
  /**
   * What the browser loads for the landing page: the entry chunk and everything it imports
   * statically, then the landing page's own chunk (a lazy route the app opens at once) and its imports.
   */
  initial: string[];
  initialTotals: { raw: number; gzip: number; brotli: number };
  /** Every other JavaScript chunk, loaded when a route or a widget asks for it. */
  lazy: string[];
}

function sizeOf(distDir: string, fileName: string): ChunkSize {
  const raw = readFileSync(path.join(distDir, fileName));
  return {
    fileName,
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The module of the page `/` shows (src/pages/index.ts): its chunk loads as soon as the app starts. */
const LANDING_PAGE_MODULE = "src/pages/landing/home.tsx";

/** Reads a built dist/ and works out the landing page's first load and the lazy chunks. */
export function bundleReport(distDir: string): BundleReport {
  // Chunks left empty (a CSS-only import) are dropped by Vite after the report is written.
  const list = (JSON.parse(readFileSync(path.join(distDir, ".vite", "chunks.json"), "utf8")) as ChunkInfo[]).filter(
    (chunk) => existsSync(path.join(distDir, chunk.fileName)),
  );
  const chunks = new Map(list.map((chunk) => [chunk.fileName, chunk]));
  const entries = list.filter((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith(".html") !== false);
  const entry = entries.find((chunk) => chunk.facadeModuleId === "index.html") ?? entries[0];
  if (!entry) throw new Error(`No entry chunk in ${distDir}/.vite/chunks.json`);
  const initial: string[] = [];
  const visit = (fileName: string) => {
    if (initial.includes(fileName) || !chunks.has(fileName)) return;
    initial.push(fileName);
    for (const next of chunks.get(fileName)?.imports ?? []) visit(next);
  };
  visit(entry.fileName);
  const landing = list.find((chunk) => chunk.isDynamicEntry && chunk.facadeModuleId?.endsWith(LANDING_PAGE_MODULE));
  if (!landing)
    throw new Error(`No chunk for the landing page (${LANDING_PAGE_MODULE}) in ${distDir}/.vite/chunks.json`);
  visit(landing.fileName);
  const sizes = new Map(list.map((chunk) => [chunk.fileName, sizeOf(distDir, chunk.fileName)]));
  const initialTotals = { raw: 0, gzip: 0, brotli: 0 };
  for (const fileName of initial) {
    const size = sizes.get(fileName)!;
    initialTotals.raw += size.raw;
    initialTotals.gzip += size.gzip;
    initialTotals.brotli += size.brotli;
  }
  const lazy = list.map((chunk) => chunk.fileName).filter((fileName) => !initial.includes(fileName));
  return { chunks, sizes, initial, initialTotals, lazy };
}

/** "node_modules/antd/es/table/Table.js 12.3 kB, …": the largest modules a chunk holds. */
export function largestModules(chunk: ChunkInfo | undefined, count = 8): string {
  if (!chunk) return "";
  return chunk.modules
    .slice(0, count)
    .map((module) => `${module.id} ${kB(module.bytes)}`)
    .join(", ");
}

/** Groups a chunk's modules by package (or by src/ folder) with their rendered bytes, largest first. */
export function packagesOf(chunkList: (ChunkInfo | undefined)[], count = 12): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const chunk of chunkList)
    for (const module of chunk?.modules ?? []) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module.id);
      const name = match ? match[1] : module.id.split("/").slice(0, 2).join("/");
      totals.set(name, (totals.get(name) ?? 0) + module.bytes);
    }
  return [...totals]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Gzipped budgets, in bytes (1 kB = 1000 B); the landing's is the goal for its first load. */
export const BUDGETS = {
  landingInitialGzip: 250_000,
  lazyChunkGzip: 200_000,
  /** Monaco loads only where an editor or a hex view opens. */
  lazyExempt: /^assets\/monaco-/,
};
