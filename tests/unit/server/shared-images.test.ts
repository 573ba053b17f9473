import { describe, expect, it, vi } from "vitest";
import type { AppContext } from "../../../server/context";
import { readImageShared } from "../../../server/services/tune-files";

const MiB = 1024 * 1024;

/** A blob store whose every read is counted; each blob is `size` bytes of its first character code. */
function fakeStore(size: number) {
  const read = vi.fn(async (sha256: string) => Buffer.alloc(size, sha256.charCodeAt(0)));
  return { ctx: { blobs: { read } } as unknown as AppContext, read };
}

describe("readImageShared", () => {
  it("reads a blob once for concurrent and later reads of the same hash", async () => {
    const { ctx, read } = fakeStore(16);
    const [a, b] = await Promise.all([readImageShared(ctx, "a-once"), readImageShared(ctx, "a-once")]);
    expect(a).toBe(b);
    await readImageShared(ctx, "a-once");
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("drops the least recently used images past 64 MiB, keeping one just read again", async () => {
    const { ctx, read } = fakeStore(8 * MiB);
    for (let i = 0; i < 8; i++) await readImageShared(ctx, `lru-${i}`);
    // lru-0 used again: lru-1 is now the oldest.
    await readImageShared(ctx, "lru-0");
    await readImageShared(ctx, "lru-8");
    expect(read).toHaveBeenCalledTimes(9);
    await readImageShared(ctx, "lru-0");
    expect(read).toHaveBeenCalledTimes(9);
    await readImageShared(ctx, "lru-1");
    expect(read).toHaveBeenCalledTimes(10);
  });

  it("forgets a failed read, so the next one tries again", async () => {
    const { ctx, read } = fakeStore(16);
    read.mockRejectedValueOnce(new Error("disk error"));
    await expect(readImageShared(ctx, "flaky")).rejects.toThrow("disk error");
    await expect(readImageShared(ctx, "flaky")).resolves.toHaveLength(16);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
