/**
 * Stored passwords (security-access secrets) are sealed with AES-256-GCM
 * before they reach the database, so a dump or a backup of it does not hand
 * out the keys to every ECU we support. The key is `SECRETS_KEY` (32 bytes,
 * base64) or, when that is unset, a key file made once in the data folder
 * (readable by its owner only), never in the database.
 *
 * A sealed value is `v1:` + base64url(iv ‖ tag ‖ ciphertext). Values written
 * before sealing existed are read as they are and sealed at the next start.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, notLike } from "drizzle-orm";
import type { Db } from "../db/connection";
import { firmwareSecrets } from "../db/schema";

const PREFIX = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES)
      throw new Error(`The secrets key must be ${KEY_BYTES} bytes (base64 of 32 random bytes), got ${key.length}`);
    return new SecretBox(key);
  }

  /** SECRETS_KEY when given, else `<dataDir>/secrets.key`; null when there is neither (nothing is made). */
  static async existing(options: { keyBase64?: string; dataDir: string }): Promise<SecretBox | null> {
    if (options.keyBase64) return SecretBox.fromKey(Buffer.from(options.keyBase64, "base64"));
    const text = await readFile(path.join(options.dataDir, "secrets.key"), "utf8").catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return null;
        throw error;
      },
    );
    return text === null ? null : SecretBox.fromKey(Buffer.from(text.trim(), "base64"));
  }

  /** SECRETS_KEY when given, else `<dataDir>/secrets.key`, made on first use. */
  static async load(options: { keyBase64?: string; dataDir: string }): Promise<SecretBox> {
    if (options.keyBase64) return SecretBox.fromKey(Buffer.from(options.keyBase64, "base64"));
    const file = path.join(options.dataDir, "secrets.key");
    try {
      return SecretBox.fromKey(Buffer.from((await readFile(file, "utf8")).trim(), "base64"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    await mkdir(options.dataDir, { recursive: true });
    const key = randomBytes(KEY_BYTES);
    // "wx": two servers starting on one folder cannot both write a key; the loser reads the winner's.
    await writeFile(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" }).catch(
      async (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      },
    );
    return SecretBox.fromKey(Buffer.from((await readFile(file, "utf8")).trim(), "base64"));
  }

  /**
   * An HMAC-SHA256 of `message` (base64url) under a key derived from this box's key for
   * `purpose`, so a signature made for one purpose (flash grants) is worthless for another and
   * the sealing key itself is never used to sign.
   */
  sign(purpose: string, message: string): string {
    const key = Buffer.from(hkdfSync("sha256", this.key, Buffer.alloc(0), `sign:${purpose}`, KEY_BYTES));
    return createHmac("sha256", key).update(message, "utf8").digest("base64url");
  }

  /** Whether `signature` is this box's signature of `message` for `purpose`, compared in constant time. */
  verify(purpose: string, message: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, message), "utf8");
    const given = Buffer.from(signature, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The plain text; throws when the value was altered or sealed with another key. */
  open(value: string): string {
    if (!SecretBox.isSealed(value)) return value;
    const bytes = Buffer.from(value.slice(PREFIX.length), "base64url");
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("The stored secret is damaged");
    const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("The stored secret cannot be opened: it was altered, or sealed with another SECRETS_KEY");
    }
  }
}

/** Seals the stored passwords written before sealing existed; run once the database is migrated. */
export async function sealStoredPasswords(db: Db, box: SecretBox): Promise<number> {
  const plain = await db
    .select({ id: firmwareSecrets.id, secret: firmwareSecrets.secret })
    .from(firmwareSecrets)
    .where(notLike(firmwareSecrets.secret, `${PREFIX}%`));
  for (const row of plain)
    await db
      .update(firmwareSecrets)
      .set({ secret: box.seal(row.secret) })
      .where(eq(firmwareSecrets.id, row.id));
  return plain.length;
}
