/**
 * The blob store on the local disk, under `<dataDir>/blobs` (and `<dataDir>/data-logs/blobs` for
 * data logs): one file per blob, `ab/ab12…`. A temp file is moved into place by a rename, which
 * is atomic on one file system, so a reader never sees half a file. `put` writes through a
 * `put-*` temp file beside the blobs; one a crash left is removed by `removeLeftovers`.
 */
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { type BlobStore, type ByteRange, isSha256, RecentlyStored, type StoredBlob, shardedName } from "./blob-store";
import { StorageUnavailable } from "./errors";

/** Entries of a folder, none when it does not exist yet. */
async function entriesOf(root: string) {
  return readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
}

export class DiskBlobStore implements BlobStore {
  readonly root: string;
  private readonly stored = new RecentlyStored();

  /** The store under `<dir>/blobs`. */
  constructor(dir: string) {
    this.root = path.join(dir, "blobs");
  }

  get location(): string {
    return `folder ${this.root}`;
  }

  /** Where a blob lives on disk; only this store's own code and its tests use it. */
  pathOf(sha256: string): string {
    return path.join(this.root, shardedName(sha256));
  }

  /** Moves a temp file (on the same file system, under dataDir) into the store. */
  async adopt(tempPath: string, sha256: string): Promise<void> {
    const target = this.pathOf(sha256);
    this.stored.mark(sha256);
    await mkdir(path.dirname(target), { recursive: true });
    if (await this.exists(sha256)) {
      await rm(tempPath, { force: true });
      return;
    }
    await rename(tempPath, target);
  }

  /** Writes through a temp file, like an upload, so the blob appears whole. */
  async put(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    this.stored.mark(sha256);
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

  async stream(sha256: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(this.pathOf(sha256), "r");
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async list(): Promise<StoredBlob[]> {
    const blobs: StoredBlob[] = [];
    for (const entry of await entriesOf(this.root)) {
      if (!entry.isFile() || !isSha256(entry.name)) continue;
      // Gone meanwhile: removed by another request.
      const info = await stat(path.join(entry.parentPath, entry.name)).catch(() => null);
      if (info)
        blobs.push({ sha256: entry.name, size: info.size, storedAt: this.stored.storedAt(entry.name, info.mtimeMs) });
    }
    return blobs;
  }

  remove(sha256: string, unlessStoredAfter: number): Promise<boolean> {
    return this.stored.removeUnlessStoredAfter(sha256, unlessStoredAfter, (hash) => this.removeNow(hash));
  }

  async removeNow(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
    this.stored.forget(sha256);
  }

  async removeLeftovers(cutoff: number): Promise<number> {
    let removed = 0;
    for (const entry of await entriesOf(this.root)) {
      if (!entry.isFile() || !entry.name.startsWith("put-")) continue;
      const file = path.join(entry.parentPath, entry.name);
      const info = await stat(file).catch(() => null);
      if (!info || info.mtimeMs > cutoff) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  async check(): Promise<string> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK);
    } catch (error) {
      throw new StorageUnavailable(error);
    }
    return this.location;
  }
}
