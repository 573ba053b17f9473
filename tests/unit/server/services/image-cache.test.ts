import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ImageCache } from "../../../../server/services/image-cache";

describe("image cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), "image-cache-")), "cache");
  });
  afterEach(async () => rm(path.dirname(dir), { recursive: true, force: true }));

  const files = async () => (await readdir(dir)).sort();

  it("removes least recently used results past the byte limit, keeping one just read", async () => {
    const cache = new ImageCache(dir, { maxBytes: 1000, maxFiles: 100 });
    await cache.put("a.webp", randomBytes(400));
    await cache.put("b.webp", randomBytes(400));
    expect(await cache.get("a.webp")).not.toBeNull();
    await cache.put("c.webp", randomBytes(400));
    expect(await files()).toEqual(["a.webp", "c.webp"]);
    expect(cache.usage()).toEqual({ bytes: 800, files: 2 });
    expect(await cache.get("b.webp")).toBeNull();
  });

  it("does not keep a result larger than the whole cache", async () => {
    const cache = new ImageCache(dir, { maxBytes: 1000, maxFiles: 100 });
    await cache.put("a.webp", randomBytes(400));
    await cache.put("huge.webp", randomBytes(1001));
    expect(await files()).toEqual(["a.webp"]);
  });

  it("after a restart, takes the order of use from the files' times, trims a folder over the limits and drops stale partial writes", async () => {
    await mkdir(dir, { recursive: true });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    for (const [name, minutesAgo] of [
      ["old.webp", 30],
      ["older.webp", 40],
      ["recent.webp", 1],
      ["mid.webp", 10],
      ["x.webp.1.2.tmp", 60],
      ["y.webp.1.2.tmp", 0],
    ] as const) {
      await writeFile(path.join(dir, name), randomBytes(100));
      await utimes(path.join(dir, name), at(minutesAgo), at(minutesAgo));
    }
    const cache = new ImageCache(dir, { maxBytes: 10_000, maxFiles: 3 });
    expect(await cache.get("old.webp"), "a hit before the first write").not.toBeNull();
    // Over the count at start: the least recently used (older) went at once.
    expect(await files()).toEqual(["mid.webp", "old.webp", "recent.webp", "y.webp.1.2.tmp"]);
    await cache.put("new.webp", randomBytes(100));
    expect(await files(), "mid was used before old was read again").toEqual([
      "new.webp",
      "old.webp",
      "recent.webp",
      "y.webp.1.2.tmp",
    ]);

    // The hit moved old.webp's time forward, so a fresh index counts it as used after recent.webp.
    const restarted = new ImageCache(dir, { maxBytes: 10_000, maxFiles: 3 });
    await restarted.put("newest.webp", randomBytes(100));
    expect(await files()).toEqual(["new.webp", "newest.webp", "old.webp", "y.webp.1.2.tmp"]);
  });
});
