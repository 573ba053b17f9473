/**
 * Temp files of requests under `<dataDir>/tmp`: uploads stream there (server/http/uploads.ts,
 * with a data log's `.columns` beside its file), profile pictures are converted there. The
 * request that made one removes it, but a process that dies mid-request (kill -9, a power cut)
 * cannot, and nothing else would: six interrupted runs once left 148 MB there.
 *
 * A request holds a temp file only while its handler runs, and the handler is stopped after
 * REQUEST_TIMEOUT_MS (Fastify's handlerTimeout; requestTimeout bounds receiving the body by the
 * same), so a temp file not written to for longer than that belongs to nobody. Such files are
 * removed when the server starts (server/main.ts) and by every blob collection
 * (blob-collector.ts); younger ones may belong to a request of another process sharing the folder.
 */
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";

/** With the request time-out off (0), a temp file is kept this long. */
const FALLBACK_MAX_AGE_MS = 60 * 60 * 1000;

export const tempDirOf = (dataDir: string) => path.join(dataDir, "tmp");

/** The longest a request may keep a temp file: its time-out. */
export function tempFileMaxAgeMs(config: Pick<Config, "requestTimeoutMs">): number {
  return config.requestTimeoutMs > 0 ? config.requestTimeoutMs : FALLBACK_MAX_AGE_MS;
}

export interface TempCleanup {
  removed: number;
  removedBytes: number;
}

/** Removes the files in `<dataDir>/tmp` last written more than `maxAgeMs` before `now`. */
export async function removeStaleTempFiles(dataDir: string, maxAgeMs: number, now = Date.now()): Promise<TempCleanup> {
  const dir = tempDirOf(dataDir);
  const result: TempCleanup = { removed: 0, removedBytes: 0 };
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(dir, entry.name);
    // Gone meanwhile: its request finished.
    const info = await stat(file).catch(() => null);
    if (!info || now - info.mtimeMs <= maxAgeMs) continue;
    await rm(file, { force: true });
    result.removed += 1;
    result.removedBytes += info.size;
  }
  return result;
}
