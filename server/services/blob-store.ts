/**
 * Where the portal keeps files, addressed by their SHA-256: the same bytes uploaded twice are
 * stored once, and a record only keeps the hash. Two implementations: the local disk under
 * `<dataDir>` (disk-blob-store.ts, the default) and an S3-compatible bucket (s3-blob-store.ts,
 * when S3_BUCKET is set); blob-stores.ts picks one from the configuration.
 *
 * Files arrive whole or not at all (`adopt` of a finished temp upload, `put` of bytes made on the
 * server), so a reader never sees half a file. Files no record refers to any more are removed by
 * blob-collector.ts, which leaves alone what was stored (or stored again) lately: its record may
 * not be committed yet. A store that cannot be reached throws StorageUnavailable (errors.ts).
 */
import type { Readable } from "node:stream";

const SHA256 = /^[0-9a-f]{64}$/;

export const isSha256 = (value: string) => SHA256.test(value);

/** Refuses anything but a SHA-256 before it becomes part of a path or a key. */
export function checkedSha256(sha256: string): string {
  if (!isSha256(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  return sha256;
}

/** Two levels, so no folder (or listing page) grows past a few thousand entries: `ab/ab12…`. */
export const shardedName = (sha256: string) => `${checkedSha256(sha256).slice(0, 2)}/${sha256}`;

export interface StoredBlob {
  sha256: string;
  size: number;
  /** When its bytes were written or last stored again, whichever is later. */
  storedAt: number;
}

/** Bytes `start` to `end` of a blob, both included, as HTTP ranges count them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  /** Where the files are, for the status page: a folder, or a bucket and prefix. */
  readonly location: string;
  /** Takes a finished temp file (under the data folder) into the store; the temp file is gone afterwards. */
  adopt(tempPath: string, sha256: string): Promise<void>;
  /** Stores bytes made on the server (a patched or baked image); answers their hash. */
  put(bytes: Uint8Array): Promise<string>;
  exists(sha256: string): Promise<boolean>;
  /** The whole blob in memory: for the small files (images of a few MiB) only. */
  read(sha256: string): Promise<Buffer>;
  /** The blob, or one range of it, as a stream; the file is opened (or the object asked for) before it resolves. */
  stream(sha256: string, range?: ByteRange): Promise<Readable>;
  /** Every stored blob. */
  list(): Promise<StoredBlob[]>;
  /** Removes a blob unless it was stored again after `unlessStoredAfter`; answers whether it did. */
  remove(sha256: string, unlessStoredAfter: number): Promise<boolean>;
  /** Removes a blob the caller knows nothing holds any more; a missing one is no error. */
  removeNow(sha256: string): Promise<void>;
  /**
   * Removes what writes an interrupted process began left behind (a temp file on disk, an
   * unfinished multipart upload in a bucket) when begun at or before `cutoff`; answers how many.
   */
  removeLeftovers(cutoff: number): Promise<number>;
  /** Throws StorageUnavailable when the store cannot be written to; answers a line saying where it is. */
  check(): Promise<string>;
}

/**
 * Blobs stored by this process, by when. A blob stored again keeps its first date on disk and in a
 * bucket, so the collector asks here too before removing one that may be about to get its record.
 */
export class RecentlyStored {
  private readonly at = new Map<string, number>();

  mark(sha256: string): void {
    this.at.set(sha256, Date.now());
  }

  /** The later of `writtenAt` and when this process last stored it. */
  storedAt(sha256: string, writtenAt: number): number {
    return Math.max(writtenAt, this.at.get(sha256) ?? 0);
  }

  /** The collector's removal: through `removeNow`, unless stored again after `time`; answers whether it removed. */
  async removeUnlessStoredAfter(
    sha256: string,
    time: number,
    removeNow: (sha256: string) => Promise<void>,
  ): Promise<boolean> {
    if ((this.at.get(sha256) ?? 0) > time) return false;
    await removeNow(sha256);
    return true;
  }

  forget(sha256: string): void {
    this.at.delete(sha256);
  }
}
