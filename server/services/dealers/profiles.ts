/**
 * Dealer profiles as the directory and their owners see them: each profile with the firmware,
 * vehicle families and count of its published tunes of the open catalogue, who may see the whole
 * profile, and the changes a dealer or an admin makes to it (applying, correcting, the dealer's
 * terms and their about text). Status changes and removal are in status.ts.
 */
import { and, arrayOverlaps, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Dealer, DealerProfile, dealerAboutSchema, dealerAdminPatchSchema } from "../../../contracts/dealers";
import type { DealerProfileSummary, DealerRequestInput } from "../../../contracts/public-site";
import type { dealerSettingsSchema } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import type { Db, Tx } from "../../db/handle";
import { dealerProfiles, supportedVehicles, tuneFiles, users } from "../../db/schema";
import { type AuditActor, auditsChangeBy, writeAudit } from "../audit";
import { conflict, notFound } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { isAdmin } from "../tune-access";

export type ProfileRow = typeof dealerProfiles.$inferSelect;
export type DealerAdminPatch = z.output<typeof dealerAdminPatchSchema>;
export type DealerSettings = z.output<typeof dealerSettingsSchema>;
export type DealerAbout = z.output<typeof dealerAboutSchema>;

const blankToNull = (value: string | undefined) => (value ? value : null);

/** The makes and models of supported vehicles running firmware a dealer's published tunes (of the open catalogue) are for. */
export const vehiclesTuned = sql`(SELECT coalesce(string_agg(${supportedVehicles.make} || ' ' || ${supportedVehicles.model}, ' '), '') FROM ${supportedVehicles}
  WHERE ${supportedVehicles.firmwareIds} && ARRAY(SELECT ${tuneFiles.firmwareId} FROM ${tuneFiles} WHERE ${tuneFiles.dealerUid} = ${dealerProfiles.userUid} AND ${tuneFiles.published} AND ${tuneFiles.repositoryId} IS NULL))`;

type CatalogueFacts = { firmwareIds: string[]; publishedTunes: number; vehicles: Dealer["vehicles"] };

/** Per dealer: the firmware of their published tunes, how many, and the vehicle families running it. */
async function catalogueOf(db: Db, dealerUids: string[]) {
  const facts = new Map<string, CatalogueFacts>();
  if (dealerUids.length === 0) return facts;
  const tunes = await db
    .select({ dealerUid: tuneFiles.dealerUid, firmwareId: tuneFiles.firmwareId, count: sql<number>`count(*)::int` })
    .from(tuneFiles)
    // The open catalogue: tunes kept in a repository are its members' business.
    .where(and(inArray(tuneFiles.dealerUid, dealerUids), eq(tuneFiles.published, true), isNull(tuneFiles.repositoryId)))
    .groupBy(tuneFiles.dealerUid, tuneFiles.firmwareId);
  const firmwareIds = [...new Set(tunes.map((t) => t.firmwareId))];
  const families = firmwareIds.length
    ? await db
        .selectDistinct({
          make: supportedVehicles.make,
          model: supportedVehicles.model,
          firmwareIds: supportedVehicles.firmwareIds,
        })
        .from(supportedVehicles)
        .where(arrayOverlaps(supportedVehicles.firmwareIds, firmwareIds))
    : [];
  for (const uid of dealerUids) {
    const own = tunes.filter((t) => t.dealerUid === uid);
    const ids = own.map((t) => t.firmwareId).sort();
    const vehicles = new Map<string, { make: string; model: string }>();
    for (const family of families)
      if (family.firmwareIds.some((id) => ids.includes(id)))
        vehicles.set(`${family.make}\u0000${family.model}`, { make: family.make, model: family.model });
    facts.set(uid, {
      firmwareIds: ids,
      publishedTunes: own.reduce((sum, t) => sum + t.count, 0),
      vehicles: [...vehicles.values()].sort((a, b) => a.make.localeCompare(b.make) || a.model.localeCompare(b.model)),
    });
  }
  return facts;
}

/** The whole profile: the directory's entry, the person and the fields only admins and the dealer see. */
function profileFrom(
  row: ProfileRow,
  dealer: Dealer,
  person: { email: string | null; displayName: string | null } | undefined,
): DealerProfile {
  return {
    ...dealer,
    userUid: row.userUid,
    email: person?.email ?? null,
    displayName: person?.displayName ?? null,
    address: row.address,
    registrationNumber: row.registrationNumber,
    vatNumber: row.vatNumber,
    phone: row.phone,
    statusReason: row.statusReason,
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    freeRevisionDays: row.freeRevisionDays,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Each row as the directory shows it and as its whole profile, with the catalogue facts read once for all rows. */
async function describe(db: Db, rows: ProfileRow[]): Promise<Array<{ dealer: Dealer; profile: DealerProfile }>> {
  const facts = await catalogueOf(
    db,
    rows.map((row) => row.userUid),
  );
  const people = rows.length
    ? await db
        .select({ uid: users.uid, email: users.email, displayName: users.displayName })
        .from(users)
        .where(
          inArray(
            users.uid,
            rows.map((row) => row.userUid),
          ),
        )
    : [];
  return rows.map((row) => {
    const dealer: Dealer = {
      id: row.id,
      businessName: row.businessName,
      country: row.country,
      website: row.website,
      status: row.status,
      logoSha256: row.logoSha256,
      about: row.about,
      ...(facts.get(row.userUid) ?? { firmwareIds: [], publishedTunes: 0, vehicles: [] }),
      createdAt: row.createdAt.toISOString(),
    };
    return {
      dealer,
      profile: profileFrom(
        row,
        dealer,
        people.find((p) => p.uid === row.userUid),
      ),
    };
  });
}

export const profileOf = async (db: Db, row: ProfileRow): Promise<DealerProfile> =>
  (await describe(db, [row]))[0].profile;

/** Admins and the dealer themself see the whole profile. */
export const seesAll = (caller: VerifiedCaller | null) => (row: ProfileRow) =>
  caller !== null && (isAdmin(caller) || caller.uid === row.userUid);

/** The profile with this id; 404 when there is none. */
export async function profileRow(db: Db, id: string): Promise<ProfileRow> {
  const [row] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.id, id));
  if (!row) throw notFound(`Dealer ${id}`);
  return row;
}

/** The profile, if the caller may see it: approved ones for everyone, others for admins and the dealer (404 otherwise). */
export async function visibleProfileRow(db: Db, caller: VerifiedCaller | null, id: string): Promise<ProfileRow> {
  const row = await profileRow(db, id);
  if (row.status !== "approved" && !seesAll(caller)(row)) throw notFound(`Dealer ${id}`);
  return row;
}

/** One dealer as the caller may see them: the whole profile for admins and the dealer, the directory's entry otherwise. */
export async function dealerFor(db: Db, caller: VerifiedCaller | null, id: string): Promise<Dealer | DealerProfile> {
  const row = await visibleProfileRow(db, caller, id);
  const [{ dealer, profile }] = await describe(db, [row]);
  return seesAll(caller)(row) ? profile : dealer;
}

/** The directory over the list's filter and page: approved dealers, every profile for admins; whole profiles where the caller sees them. */
export async function dealerPage<Page extends { data: ProfileRow[] }>(
  db: Db,
  caller: VerifiedCaller | null,
  list: Lister<ProfileRow, Page>,
): Promise<Omit<Page, "data"> & { data: Array<Dealer | DealerProfile> }> {
  const scope: SQL | undefined = caller && isAdmin(caller) ? undefined : eq(dealerProfiles.status, "approved");
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(dealerProfiles)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  const full = seesAll(caller);
  const described = await describe(db, page.data);
  return { ...page, data: page.data.map((row, i) => (full(row) ? described[i].profile : described[i].dealer)) };
}

/** The user's profile row, if they have one. */
export const profileRowOfUser = async (db: Db, uid: string): Promise<ProfileRow | undefined> =>
  (await db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, uid)))[0];

/** A user's dealer profile; 404 when they have none. */
export async function dealerProfileOfUser(db: Db, uid: string): Promise<DealerProfile> {
  const row = await profileRowOfUser(db, uid);
  if (!row) throw notFound(`A dealer profile for user ${uid}`);
  return profileOf(db, row);
}

/** The hash of an approved dealer's logo, its blob present; 404 otherwise. */
export async function dealerLogo(ctx: AppContext, id: string): Promise<string> {
  const [row] = await ctx.db
    .select({ logoSha256: dealerProfiles.logoSha256 })
    .from(dealerProfiles)
    .where(and(eq(dealerProfiles.id, id), eq(dealerProfiles.status, "approved")));
  if (!row?.logoSha256 || !(await ctx.blobs.exists(row.logoSha256))) throw notFound(`A logo of dealer ${id}`);
  return row.logoSha256;
}

/** A user applies to become a dealer: a pending profile. One per user, so a second (even concurrent) application is a 409. */
export async function applyForDealer(db: Db, uid: string, input: DealerRequestInput): Promise<DealerProfileSummary> {
  // One profile per user (unique user_uid): a second request, even a concurrent one, inserts nothing.
  const [created] = await db
    .insert(dealerProfiles)
    .values({
      userUid: uid,
      businessName: input.businessName,
      address: input.address,
      registrationNumber: input.registrationNumber,
      vatNumber: blankToNull(input.vatNumber),
      website: blankToNull(input.website),
      phone: input.phone,
      status: "pending",
    })
    .onConflictDoNothing({ target: dealerProfiles.userUid })
    .returning({
      id: dealerProfiles.id,
      businessName: dealerProfiles.businessName,
      status: dealerProfiles.status,
      createdAt: dealerProfiles.createdAt,
    });
  if (!created) {
    const [existing] = await db
      .select({ businessName: dealerProfiles.businessName, status: dealerProfiles.status })
      .from(dealerProfiles)
      .where(eq(dealerProfiles.userUid, uid));
    throw conflict(
      `You already have a dealer profile for ${existing?.businessName ?? "your business"} (${existing?.status ?? "pending"})`,
      [{ path: "businessName", message: "One dealer profile per account" }],
    );
  }
  return { ...created, createdAt: created.createdAt.toISOString() };
}

/** The profile with this id, locked for the transaction's change; 404 when there is none. */
export async function lockedProfileRow(tx: Tx, id: string): Promise<ProfileRow> {
  const [row] = await tx.select().from(dealerProfiles).where(eq(dealerProfiles.id, id)).for("update");
  if (!row) throw notFound(`Dealer ${id}`);
  return row;
}

/** Admin: corrects the profile's fields, audited. */
export async function correctDealerProfile(
  db: Db,
  actor: AuditActor,
  id: string,
  patch: DealerAdminPatch,
): Promise<DealerProfile> {
  const row = await db.transaction(async (tx) => {
    const current = await lockedProfileRow(tx, id);
    const [changed] = await tx
      .update(dealerProfiles)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(dealerProfiles.id, current.id))
      .returning();
    const fields = Object.keys(patch) as (keyof typeof patch)[];
    await writeAudit(tx, actor, {
      action: "dealer.updated",
      targetType: "dealer",
      targetId: current.id,
      subjectUid: current.userUid,
      before: Object.fromEntries(fields.map((field) => [field, current[field]])),
      after: patch,
    });
    return changed;
  });
  return profileOf(db, row);
}

/** The fields of a profile its dealer keeps themself, without review. */
type OwnProfileFields = Partial<Pick<ProfileRow, "freeRevisionDays" | "about">>;

/**
 * A change the dealer makes to their own profile, or an admin for them (audited when not the
 * dealer); anyone else is answered as if the profile did not exist (404).
 */
async function changeOwnProfile(
  db: Db,
  caller: VerifiedCaller,
  actor: AuditActor,
  id: string,
  change: { action: string; values: OwnProfileFields },
): Promise<DealerProfile> {
  const row = await profileRow(db, id);
  if (!seesAll(caller)(row)) throw notFound(`Dealer ${id}`);
  const fields = Object.keys(change.values) as (keyof OwnProfileFields)[];
  const updated = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(dealerProfiles)
      .set({ ...change.values, updatedAt: new Date() })
      .where(eq(dealerProfiles.id, row.id))
      .returning();
    if (auditsChangeBy(actor, row.userUid)) {
      await writeAudit(tx, actor, {
        action: change.action,
        targetType: "dealer",
        targetId: row.id,
        subjectUid: row.userUid,
        before: Object.fromEntries(fields.map((field) => [field, row[field]])),
        after: change.values,
      });
    }
    return changed;
  });
  return profileOf(db, updated);
}

/** The dealer's own terms for custom tunes, by the dealer or an admin (audited when not the dealer); 404 to anyone else. */
export const changeDealerSettings = (
  db: Db,
  caller: VerifiedCaller,
  actor: AuditActor,
  id: string,
  settings: DealerSettings,
): Promise<DealerProfile> =>
  changeOwnProfile(db, caller, actor, id, { action: "dealer.settings-changed", values: settings });

/** The dealer's words about their business, by the dealer or an admin (audited when not the dealer); blank clears them. */
export const changeDealerAbout = (
  db: Db,
  caller: VerifiedCaller,
  actor: AuditActor,
  id: string,
  { about }: DealerAbout,
): Promise<DealerProfile> =>
  changeOwnProfile(db, caller, actor, id, { action: "dealer.about-changed", values: { about: about || null } });
