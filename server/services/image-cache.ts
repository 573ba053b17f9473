/**
 * The image proxy's results on disk (server/routes/image-proxy.ts), capped in bytes and in
 * files: anyone may ask for any size of any of our images, so without a cap the folder grows
 * with every new combination. Past either cap the least recently used results are removed.
 *
 * Recency lives in an index in memory (a Map in order of use), built from the folder at first
 * use with each file's modification time as its last use; a hit moves the file's mtime forward
 * (at most once a minute per file), so the order survives a restart. Another process sharing the
 * folder is not seen until then; its files are adopted when read.
 */
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

export interface ImageCacheLimits {
  maxBytes: number;
  maxFiles: number;
}

interface Entry {
  size: number;
  usedAt: number;
}

/** A hit moves the file's mtime forward only when the last move is older than this. */
const TOUCH_EVERY_MS = 60_000;
/** A partial write older than this was left by a process that died writing it. */
const STALE_PARTIAL_MS = 10 * 60_000;
const PARTIAL = /\.tmp$/;

export class ImageCache {
  /** Least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private loading: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    readonly limits: ImageCacheLimits,
  ) {}

  /** Total size and number of the cached results. */
  usage(): { bytes: number; files: number } {
    return { bytes: this.bytes, files: this.entries.size };
  }

  /** The cached bytes under `name`, or null; a hit counts as a use. */
  async get(name: string): Promise<Buffer | null> {
    await this.load();
    const file = path.join(this.dir, name);
    const bytes = await readFile(file).catch(() => null);
    if (!bytes) {
      this.forget(name);
      return null;
    }
    const now = Date.now();
    const entry = this.entries.get(name);
    this.forget(name);
    this.remember(name, {
      size: bytes.length,
      usedAt: entry && now - entry.usedAt < TOUCH_EVERY_MS ? entry.usedAt : now,
    });
    if (!entry || now - entry.usedAt >= TOUCH_EVERY_MS)
      await utimes(file, new Date(now), new Date(now)).catch(() => {});
    return bytes;
  }

  /** Stores `bytes` under `name` (through a temp file and a rename), then trims to the limits. */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.load();
    // One result larger than the whole cache is answered but not kept.
    if (bytes.length > this.limits.maxBytes || this.limits.maxFiles < 1) return;
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, name);
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(partial, bytes);
    await rename(partial, file);
    this.forget(name);
    this.remember(name, { size: bytes.length, usedAt: Date.now() });
    await this.trim(name);
  }

  private remember(name: string, entry: Entry): void {
    this.entries.set(name, entry);
    this.bytes += entry.size;
  }

  private forget(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    this.bytes -= entry.size;
  }

  /** Removes least recently used results until both limits hold; `keep` (just stored) stays. */
  private async trim(keep: string): Promise<void> {
    for (const name of [...this.entries.keys()]) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxFiles) return;
      if (name === keep) continue;
      this.forget(name);
      await rm(path.join(this.dir, name), { force: true });
    }
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      });
      const now = Date.now();
      const found: Array<[string, Entry]> = [];
      for (const name of names) {
        const info = await stat(path.join(this.dir, name)).catch(() => null);
        if (!info?.isFile()) continue;
        if (PARTIAL.test(name)) {
          if (now - info.mtimeMs > STALE_PARTIAL_MS) await rm(path.join(this.dir, name), { force: true });
          continue;
        }
        found.push([name, { size: info.size, usedAt: info.mtimeMs }]);
      }
      found.sort((a, b) => a[1].usedAt - b[1].usedAt);
      for (const [name, entry] of found) this.remember(name, entry);
      // A folder over the limits (older versions kept everything) shrinks at once.
      await this.trim("");
    })();
    return this.loading;
  }
}
