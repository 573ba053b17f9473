/**
 * Stored passwords (the security-access passwords per firmware): sealed at rest, each write,
 * reveal and delete audited without the secret itself.
 */
import { eq, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { firmwareSecretInputSchema } from "../../contracts/firmware-support";
import type { Db } from "../db/handle";
import { firmwareSecrets, secretReveals } from "../db/schema";
import { type AuditActor, writeAudit } from "./audit";
import { notFound } from "./errors";
import { lockFirmwareIds } from "./firmware-support/references";
import type { SecretBox } from "./secret-box";

type SecretRow = typeof firmwareSecrets.$inferSelect;

// What the trail keeps of a stored password: never the secret, only whether it changed.
const audited = (row: SecretRow) => ({
  firmwareId: row.firmwareId,
  label: row.label,
  securityLevel: row.securityLevel,
});

export function firmwareSecretPage(
  db: Db,
  { where, orderBy, limit, offset }: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
) {
  return db
    .select()
    .from(firmwareSecrets)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

/** Creates (no id) or updates (id) a stored password, sealed; an unknown id is not found. */
export async function saveFirmwareSecret(
  db: Db,
  secrets: SecretBox,
  actor: AuditActor,
  input: z.output<typeof firmwareSecretInputSchema>,
): Promise<SecretRow> {
  return db.transaction(async (tx) => {
    await lockFirmwareIds(tx, [input.firmwareId], "firmwareId");
    const { id, ...plain } = input;
    const values = { ...plain, secret: secrets.seal(plain.secret) };
    if (id) {
      const [current] = await tx.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, id)).for("update");
      if (!current) throw notFound(`Stored password ${id}`);
      const [updated] = await tx
        .update(firmwareSecrets)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(firmwareSecrets.id, id))
        .returning();
      const secretChanged = secrets.open(current.secret) !== plain.secret;
      await writeAudit(tx, actor, {
        action: "stored-password.updated",
        targetType: "stored-password",
        targetId: id,
        before: audited(current),
        after: { ...audited(updated), secretChanged },
      });
      return updated;
    }
    const [created] = await tx.insert(firmwareSecrets).values(values).returning();
    await writeAudit(tx, actor, {
      action: "stored-password.created",
      targetType: "stored-password",
      targetId: created.id,
      after: audited(created),
    });
    return created;
  });
}

/** The stored row (still sealed), once its reading is logged and audited. */
export async function revealFirmwareSecret(db: Db, actor: AuditActor, id: string, revealedBy: string) {
  return db.transaction(async (tx) => {
    const [secret] = await tx.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, id));
    if (!secret) throw notFound(`Stored password ${id}`);
    await tx.insert(secretReveals).values({ secretId: id, revealedBy });
    // That it was read, by whom and when; the value itself never reaches the trail.
    await writeAudit(tx, actor, {
      action: "stored-password.revealed",
      targetType: "stored-password",
      targetId: id,
      after: audited(secret),
    });
    return secret;
  });
}

export async function deleteFirmwareSecret(db: Db, actor: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(firmwareSecrets).where(eq(firmwareSecrets.id, id)).returning();
    if (!deleted) throw notFound(`Stored password ${id}`);
    await writeAudit(tx, actor, {
      action: "stored-password.deleted",
      targetType: "stored-password",
      targetId: id,
      before: audited(deleted),
    });
  });
}
