import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DiskBlobStore } from "../../../../server/services/disk-blob-store";

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("the blob store on disk", () => {
  let dir: string;
  let store: DiskBlobStore;
  const temp = async (bytes: Uint8Array) => {
    const file = path.join(dir, "tmp", `upload-${randomBytes(4).toString("hex")}`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
    return file;
  };

  beforeEach(async () => {
    dir = path.join(tmpdir(), `disk-blobs-${randomBytes(4).toString("hex")}`);
    store = new DiskBlobStore(dir);
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("moves an adopted temp file in, and answers it whole and by byte range", async () => {
    const bytes = randomBytes(4096);
    const sha256 = sha256Of(bytes);
    const file = await temp(bytes);
    await store.adopt(file, sha256);
    expect(existsSync(file)).toBe(false);
    expect(await store.exists(sha256)).toBe(true);
    expect((await store.read(sha256)).equals(bytes)).toBe(true);
    expect((await bytesOf(await store.stream(sha256))).equals(bytes)).toBe(true);
    expect((await bytesOf(await store.stream(sha256, { start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(
      true,
    );
    expect(await store.list()).toEqual([{ sha256, size: 4096, storedAt: expect.any(Number) }]);
  });

  it("keeps one copy of bytes adopted twice, removing the second temp file", async () => {
    const bytes = randomBytes(100);
    const sha256 = sha256Of(bytes);
    await store.adopt(await temp(bytes), sha256);
    const second = await temp(bytes);
    await store.adopt(second, sha256);
    expect(existsSync(second)).toBe(false);
    expect((await store.list()).map((blob) => blob.sha256)).toEqual([sha256]);
  });

  it("refuses a stream of a missing blob before any byte is sent", async () => {
    await expect(store.stream(sha256Of(randomBytes(8)))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("keeps a blob stored again after the collector's start, and removes it at once when asked", async () => {
    const sha256 = await store.put(randomBytes(64));
    expect(await store.remove(sha256, Date.now() - 60_000)).toBe(false);
    expect(await store.remove(sha256, Date.now() + 1)).toBe(true);
    expect(await store.exists(sha256)).toBe(false);
    const again = await store.put(randomBytes(64));
    await store.removeNow(again);
    await store.removeNow(again);
    expect(await store.list()).toEqual([]);
  });

  it("removes put temp files a crash left once older than the cutoff, and lists none as blobs", async () => {
    await store.put(randomBytes(16));
    const old = path.join(store.root, "put-old");
    const young = path.join(store.root, "put-young");
    await writeFile(old, "cut off");
    await writeFile(young, "being written");
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(old, hourAgo, hourAgo);
    expect(await store.list()).toHaveLength(1);
    expect(await store.removeLeftovers(Date.now() - 60_000)).toBe(1);
    expect((await readdir(store.root)).filter((name) => name.startsWith("put-"))).toEqual(["put-young"]);
  });

  it("refuses a name that is not a SHA-256 before it becomes a path", async () => {
    expect(() => store.pathOf("../../etc/passwd")).toThrow(/not a SHA-256/);
    await expect(store.check()).resolves.toBe(`folder ${store.root}`);
  });
});
