/**
 * Share links of data logs: making and revoking them (audited when an admin acts on someone's log),
 * the live links of a log or of a vehicle's logs, and resolving a link's token to its log.
 */
import { randomBytes } from "node:crypto";
import { and, eq, getTableColumns, isNull } from "drizzle-orm";
import type { SharedLayout } from "../../contracts/data-log-layouts";
import type { CreatedDataLogShare, DataLogShare, VehicleSharedLog } from "../../contracts/data-logs";
import type { LogChannel } from "../../domain/logs";
import type { Db } from "../db/handle";
import { dataLogShares, dataLogs, userVehicles } from "../db/schema";
import { auditChangeTo } from "./audit";
import { hashToken, type LogRow, liveShare, ownedLog, shareOf } from "./data-logs";
import { invalid, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";

type Requester = { caller: VerifiedCaller; id: string };

/**
 * Shares channels of a log the caller owns (all of them when none are named) until `expiresAt`
 * (or until revoked), opening with `layout`'s panes when one is given: the answer carries the
 * link's token, which is stored only as its hash.
 */
export async function shareLog(
  db: Db,
  request: Requester,
  logId: string,
  input: { channels: string[]; layout?: SharedLayout | null; expiresAt?: string | null },
): Promise<CreatedDataLogShare> {
  const row = await ownedLog(db, request.caller, logId);
  const known = new Set((row.channels as LogChannel[]).map((channel) => channel.id));
  refuseUnknown("channels", input.channels, known);
  // The layout draws only what the link shows: a channel left out of the share cannot be in a pane.
  const shown = input.channels.length ? new Set(input.channels) : known;
  const layout = input.layout
    ? { name: input.layout.name, panes: input.layout.panes.map((pane) => [...new Set(pane)]) }
    : null;
  if (layout) refuseUnknown("layout.panes", layout.panes.flat(), shown);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw invalid("Invalid body", "expiresAt must be in the future", [
      { path: "expiresAt", message: "must be in the future" },
    ]);
  }
  // 256 random bits: the link is the only credential a viewer needs.
  const token = randomBytes(32).toString("base64url");
  const share = await createShare(db, request, row, token, { channels: input.channels, layout, expiresAt });
  return { ...shareOf(share), token };
}

/** Refuses channel ids the log has not (or the link does not show), naming each. */
function refuseUnknown(path: string, ids: readonly string[], known: ReadonlySet<string>) {
  const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
  if (unknown.length === 0) return;
  const where = path === "channels" ? "This log has no channel" : "The link does not show channel";
  throw invalid(
    path === "channels" ? "Unknown channels" : "Unknown layout channels",
    `${where} ${unknown.join(", ")}`,
    unknown.map((channel) => ({ path, message: `unknown channel "${channel}"` })),
  );
}

/** Stores a share of the log under the token's hash; the trail keeps the share, never its token. */
async function createShare(
  db: Db,
  request: Requester,
  row: LogRow,
  token: string,
  shown: { channels: string[]; layout: SharedLayout | null; expiresAt: Date | null },
) {
  const { channels, layout, expiresAt } = shown;
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(dataLogShares)
      .values({ logId: row.id, tokenHash: hashToken(token), channels: [...new Set(channels)], layout, expiresAt })
      .returning();
    // An admin publishing someone's log by link: the trail keeps the share, never its token.
    await auditChangeTo(tx, request, row.ownerUid, {
      action: "data-log.shared",
      targetType: "data-log",
      targetId: row.id,
      after: {
        shareId: made.id,
        channels: made.channels,
        layout: made.layout?.name ?? null,
        expiresAt: made.expiresAt,
      },
    });
    return made;
  });
}

/** Every share of a log the caller owns, revoked ones too, oldest first. */
export async function sharesOf(db: Db, caller: VerifiedCaller, logId: string): Promise<DataLogShare[]> {
  const row = await ownedLog(db, caller, logId);
  const shares = await db
    .select()
    .from(dataLogShares)
    .where(eq(dataLogShares.logId, row.id))
    .orderBy(dataLogShares.createdAt);
  return shares.map(shareOf);
}

/** Revokes a live share of a log the caller owns; a revoked or unknown one is not found. */
export async function revokeShare(db: Db, request: Requester, logId: string, shareId: string) {
  const row = await ownedLog(db, request.caller, logId);
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(dataLogShares)
      .set({ revokedAt: new Date() })
      .where(and(eq(dataLogShares.id, shareId), eq(dataLogShares.logId, row.id), isNull(dataLogShares.revokedAt)))
      .returning({ id: dataLogShares.id });
    if (revoked.length === 0) throw notFound(`Share ${shareId}`);
    await auditChangeTo(tx, request, row.ownerUid, {
      action: "data-log.share-revoked",
      targetType: "data-log",
      targetId: row.id,
      before: { shareId },
    });
  });
}

/** The live share a token opens, its log and the channels it shows. */
export async function resolveShare(db: Db, token: string) {
  const [found] = await db
    .select({ share: dataLogShares, log: dataLogs })
    .from(dataLogShares)
    .innerJoin(dataLogs, eq(dataLogs.id, dataLogShares.logId))
    .where(and(eq(dataLogShares.tokenHash, hashToken(token)), liveShare()));
  // Revoked, expired and never-issued links look the same.
  if (!found) throw notFound("This shared log");
  const shown = new Set(found.share.channels);
  const channels = (found.log.channels as LogChannel[]).filter((channel) => shown.size === 0 || shown.has(channel.id));
  return { ...found, channels };
}

/** The live shares of a vehicle's logs, for its owner (or an admin); another's vehicle is not found. */
export async function vehicleSharedLogs(db: Db, caller: VerifiedCaller, id: string): Promise<VehicleSharedLog[]> {
  const [vehicle] = await db
    .select({ id: userVehicles.id })
    .from(userVehicles)
    .where(and(eq(userVehicles.id, id), caller.role === "admin" ? undefined : eq(userVehicles.ownerUid, caller.uid)));
  if (!vehicle) throw notFound(`Vehicle ${id}`);
  const rows = await db
    .select({ share: getTableColumns(dataLogShares), title: dataLogs.title })
    .from(dataLogShares)
    .innerJoin(dataLogs, eq(dataLogs.id, dataLogShares.logId))
    .where(and(eq(dataLogs.vehicleId, id), liveShare()))
    .orderBy(dataLogShares.createdAt);
  return rows.map(({ share, title }) => ({
    shareId: share.id,
    logId: share.logId,
    title,
    channels: share.channels,
    expiresAt: share.expiresAt?.toISOString() ?? null,
    createdAt: share.createdAt.toISOString(),
  }));
}
