import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SecretBox } from "../../../../server/services/secret-box";

describe("secret box", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "secret-box-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("seals to a value that hides the secret, differs every time and opens to it", () => {
    const box = SecretBox.fromKey(randomBytes(32));
    const [a, b] = [box.seal("SA2 seed-key 0x1F2E"), box.seal("SA2 seed-key 0x1F2E")];
    expect(a).not.toContain("seed-key");
    expect(a).not.toBe(b);
    expect(SecretBox.isSealed(a)).toBe(true);
    expect(box.open(a)).toBe("SA2 seed-key 0x1F2E");
    expect(box.open(box.seal(""))).toBe("");
  });

  it("refuses a value altered by one bit, or sealed with another key", () => {
    const box = SecretBox.fromKey(randomBytes(32));
    const sealed = box.seal("s3cr3t");
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.open(`v1:${bytes.toString("base64url")}`)).toThrow("altered, or sealed with another SECRETS_KEY");
    expect(() => SecretBox.fromKey(randomBytes(32)).open(sealed)).toThrow("altered");
  });

  it("reads a value stored before sealing existed as it is", () => {
    expect(SecretBox.fromKey(randomBytes(32)).open("legacy-plain")).toBe("legacy-plain");
  });

  it("takes SECRETS_KEY, else makes one key file in the data folder, readable by its owner only, and keeps it", async () => {
    const dir = await tempDir();
    const first = await SecretBox.load({ dataDir: dir });
    const sealed = first.seal("kept");
    expect((await stat(path.join(dir, "secrets.key"))).mode & 0o777).toBe(0o600);
    expect((await SecretBox.load({ dataDir: dir })).open(sealed)).toBe("kept");
    const key = (await readFile(path.join(dir, "secrets.key"), "utf8")).trim();
    expect((await SecretBox.load({ dataDir: await tempDir(), keyBase64: key })).open(sealed)).toBe("kept");
    await expect(SecretBox.load({ dataDir: dir, keyBase64: "c2hvcnQ=" })).rejects.toThrow("must be 32 bytes");
  });
});
