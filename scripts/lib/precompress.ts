import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text-like files worth compressing; images, fonts in woff2 and archives are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|map|wasm|ttf|otf|ico|webmanifest)$/i;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // .vite/ holds the build's manifest, read by tools and never served.
    if (entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `<file>.br` (Brotli, best quality) and `<file>.gz` (gzip level 9) beside every compressible
 * file of a built SPA, keeping a variant only when it is smaller than the original. The server picks
 * one per request from Accept-Encoding (server/http/static.ts); nothing is compressed per request.
 */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; br: number; gz: number }> {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const raw = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          gz(raw, { level: 9 }),
        ]);
        totals.files++;
        totals.bytes += raw.length;
        if (br.length < raw.length) {
          await writeFile(`${file}.br`, br);
          totals.br += br.length;
        }
        if (gzipped.length < raw.length) {
          await writeFile(`${file}.gz`, gzipped);
          totals.gz += gzipped.length;
        }
      })(),
    );
  }
  await Promise.all(jobs);
  return totals;
}
