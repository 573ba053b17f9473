/**
 * Flash grants: the licence to write one file onto one car, given by the
 * pre-flight. The token the app carries is `<grant id>.<signature>`; the
 * signature covers what the grant binds (vehicle, kind, file hash, ECU serial),
 * so a token altered in any part, or moved to another car, file or ECU, is
 * refused. A grant is used once: the flash session that starts with it takes
 * it in a conditional update, so two sessions cannot share one.
 */
import { and, eq, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/handle";
import { firmwareSupport, flashGrants } from "../db/schema";
import { Refusal } from "./errors";
import type { SecretBox } from "./secret-box";

export type GrantRow = typeof flashGrants.$inferSelect;
const PURPOSE = "flash-grant";

/** What a grant binds, and never changes: its expiry and use are the row's, checked at each use. */
const factsOf = (grant: Pick<GrantRow, "id" | "vehicleId" | "sha256" | "ecuSerial" | "kind">) =>
  [grant.id, grant.vehicleId, grant.kind, grant.sha256, grant.ecuSerial].join("|");

export const grantToken = (box: SecretBox, grant: GrantRow): string =>
  `${grant.id}.${box.sign(PURPOSE, factsOf(grant))}`;

const refused = (message: string) =>
  new Refusal("forbidden", "Flash grant refused", message, [{ path: "grant", message }]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The grant a token stands for, checked: signature, vehicle, expiry and (unless `allowUsed`)
 * not yet used. Every refusal is a 403 naming why.
 */
export async function grantOfToken(
  db: Db | Tx,
  box: SecretBox,
  token: string,
  vehicleId: string,
  options: { allowUsed?: boolean; now?: Date } = {},
): Promise<GrantRow> {
  const [id, signature] = token.split(".");
  if (!id || !signature || !UUID.test(id)) throw refused("the grant token is malformed");
  const [grant] = await db.select().from(flashGrants).where(eq(flashGrants.id, id));
  if (!grant || !box.verify(PURPOSE, factsOf(grant), signature))
    throw refused("the grant token is not one this server signed");
  if (grant.vehicleId !== vehicleId) throw refused("the grant is for another vehicle");
  if (grant.expiresAt.getTime() <= (options.now ?? new Date()).getTime())
    throw refused("the grant has expired: run the pre-flight again");
  if (grant.usedAt && !options.allowUsed)
    throw refused("the grant was already used by a flash session: run the pre-flight again");
  return grant;
}

/** Marks the grant used; false when another session took it first. */
export async function useGrant(tx: Tx, grantId: string, at: Date): Promise<boolean> {
  const taken = await tx
    .update(flashGrants)
    .set({ usedAt: at })
    .where(and(eq(flashGrants.id, grantId), isNull(flashGrants.usedAt)))
    .returning({ id: flashGrants.id });
  return taken.length === 1;
}

/** Stores a grant the pre-flight gave. */
export async function insertGrant(db: Db, values: typeof flashGrants.$inferInsert): Promise<GrantRow> {
  const [grant] = await db.insert(flashGrants).values(values).returning();
  return grant;
}

/** The flashing support named by its record id or its firmware id, if any. */
export async function flashingSupportOf(db: Db, x: string) {
  const byId = z.uuid().safeParse(x).success;
  const [record] = await db
    .select()
    .from(firmwareSupport)
    .where(byId ? or(eq(firmwareSupport.id, x), eq(firmwareSupport.firmwareId, x)) : eq(firmwareSupport.firmwareId, x));
  return record;
}
