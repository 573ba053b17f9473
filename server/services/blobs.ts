/**
 * Files kept on disk under `<dataDir>/blobs`, addressed by their SHA-256: the
 * same bytes uploaded twice are stored once, and a record only keeps the hash.
 * Files arrive through `adopt`, which moves a finished temp file into place, so
 * a reader never sees half a file. Files no record refers to any more are
 * removed by server/services/blob-collector.ts, which leaves alone what was
 * stored (or stored again) lately: its record may not be committed yet.
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

const SHA256 = /^[0-9a-f]{64}$/;

export interface StoredBlob {
  sha256: string;
  size: number;
  /** When its bytes were written or last stored again, whichever is later. */
  storedAt: number;
}

export class BlobStore {
  readonly root: string;
  /** Blobs stored in this process, by when: a file stored again keeps its old mtime. */
  private readonly stored = new Map<string, number>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, "blobs");
  }

  /** Where a blob lives; two levels so no directory grows past a few thousand entries. */
  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  /** Moves a temp file (on the same file system, under dataDir) into the store. */
  async adopt(tempPath: string, sha256: string): Promise<void> {
    const target = this.pathOf(sha256);
    this.stored.set(sha256, Date.now());
    await mkdir(path.dirname(target), { recursive: true });
    if (await this.exists(sha256)) {
      await rm(tempPath, { force: true });
      return;
    }
    await rename(tempPath, target);
  }

  /** Stores bytes made on the server (a patched or baked image) through a temp file, like an upload; returns the hash. */
  async put(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    this.stored.set(sha256, Date.now());
    if (await this.exists(sha256)) return sha256;
    const temp = path.join(this.root, `put-${randomBytes(12).toString("hex")}`);
    await mkdir(this.root, { recursive: true });
    await writeFile(temp, bytes);
    await this.adopt(temp, sha256);
    return sha256;
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch {
      return false;
    }
  }

  read(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  stream(sha256: string) {
    return createReadStream(this.pathOf(sha256));
  }

  /** Every stored blob; temp files left by a crash are listed as `temps`. */
  async list(): Promise<{ blobs: StoredBlob[]; temps: Array<{ path: string; storedAt: number }> }> {
    const blobs: StoredBlob[] = [];
    const temps: Array<{ path: string; storedAt: number }> = [];
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      },
    );
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const info = await stat(file).catch(() => null);
      if (!info) continue;
      if (SHA256.test(entry.name))
        blobs.push({
          sha256: entry.name,
          size: info.size,
          storedAt: Math.max(info.mtimeMs, this.stored.get(entry.name) ?? 0),
        });
      else if (entry.name.startsWith("put-")) temps.push({ path: file, storedAt: info.mtimeMs });
    }
    return { blobs, temps };
  }

  /** Removes a blob unless it was stored again after `unlessStoredAfter`. */
  async remove(sha256: string, unlessStoredAfter: number): Promise<boolean> {
    if ((this.stored.get(sha256) ?? 0) > unlessStoredAfter) return false;
    await rm(this.pathOf(sha256), { force: true });
    this.stored.delete(sha256);
    return true;
  }
}
