/**
 * What happened to a car: its ECU snapshots, its timeline (connects, stock read, bakes, flashes,
 * tuning requests, logs) and the files attached to it, each found for a caller who reaches the
 * car (services/tune-access.ts vehicleFor).
 */
import { and, desc, eq, gt, inArray, isNull, or } from "drizzle-orm";
import type { Snapshot, TimelineEntry } from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import type { Db } from "../../db/connection";
import {
  bakedTuneFiles,
  dataLogs,
  flashLogs,
  tuningRequestEvents,
  tuningRequests,
  vehicleSnapshots,
} from "../../db/schema";
import { forbidden, notFound } from "../errors";
import { grantOfToken } from "../flash-grants";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { snapshotToApi } from "../snapshots";
import { bakeAccess, type VehicleRow, vehicleFor } from "../tune-access";

type SnapshotRow = typeof vehicleSnapshots.$inferSelect;
type BakedRow = typeof bakedTuneFiles.$inferSelect;
type LogRow = typeof dataLogs.$inferSelect;

/** Each source of the timeline gives at most this many of its newest entries. */
const TIMELINE_PER_SOURCE = 200;

/** A page of the car's ECU snapshots. */
export async function snapshotPageOf<Page extends { data: SnapshotRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  vehicleId: string,
  list: Lister<SnapshotRow, Page>,
): Promise<Omit<Page, "data"> & { data: Snapshot[] }> {
  const { vehicle } = await vehicleFor(db, vehicleId, caller);
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(vehicleSnapshots)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    eq(vehicleSnapshots.vehicleId, vehicle.id),
  );
  return { ...page, data: page.data.map(snapshotToApi) };
}

/** Unexpired bakes of the car: kept ones and live previews. */
const liveBakeOf = (vehicleId: string) =>
  and(
    eq(bakedTuneFiles.vehicleId, vehicleId),
    or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
  );

/** The newest rows of each source of the timeline. */
function timelineSources(db: Db, caller: VerifiedCaller, vehicleId: string, owner: boolean) {
  return Promise.all([
    db
      .select()
      .from(vehicleSnapshots)
      .where(and(eq(vehicleSnapshots.vehicleId, vehicleId), eq(vehicleSnapshots.kind, "connect")))
      .orderBy(desc(vehicleSnapshots.recordedAt))
      .limit(TIMELINE_PER_SOURCE),
    db
      .select()
      .from(bakedTuneFiles)
      .where(liveBakeOf(vehicleId))
      .orderBy(desc(bakedTuneFiles.createdAt))
      .limit(TIMELINE_PER_SOURCE),
    db
      .select()
      .from(flashLogs)
      .where(eq(flashLogs.vehicleId, vehicleId))
      .orderBy(desc(flashLogs.flashedAt))
      .limit(TIMELINE_PER_SOURCE),
    db
      .select({ id: dataLogs.id, title: dataLogs.title, createdAt: dataLogs.createdAt, ownerUid: dataLogs.ownerUid })
      .from(dataLogs)
      .where(eq(dataLogs.vehicleId, vehicleId))
      .orderBy(desc(dataLogs.createdAt))
      .limit(TIMELINE_PER_SOURCE),
    // The car's tuning requests as they moved: the owner sees all, a dealer those made to them.
    db
      .select({ event: tuningRequestEvents, number: tuningRequests.number, id: tuningRequests.id })
      .from(tuningRequestEvents)
      .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestEvents.requestId))
      .where(
        and(
          eq(tuningRequests.vehicleId, vehicleId),
          inArray(tuningRequestEvents.kind, ["submitted", "transition"]),
          owner || caller.role === "admin" ? undefined : eq(tuningRequests.dealerUid, caller.uid),
        ),
      )
      .orderBy(desc(tuningRequestEvents.at))
      .limit(TIMELINE_PER_SOURCE),
  ]);
}

type TimelineSources = Awaited<ReturnType<typeof timelineSources>>;

/** The connects and the stock read as timeline entries. */
function ecuEntries(vehicle: VehicleRow, connects: TimelineSources[0]): TimelineEntry[] {
  return [
    ...connects.map((row) => ({
      kind: "connect" as const,
      at: row.recordedAt.toISOString(),
      refId: row.id,
      title: "Connected with the app",
      detail: [
        row.softwareId && `software ${row.softwareId}`,
        row.batteryVolts !== null && `battery ${row.batteryVolts.toFixed(1)} V`,
        row.faultCodes.length > 0 && `${row.faultCodes.length} fault code(s)`,
      ]
        .filter(Boolean)
        .join(", "),
      result: null,
    })),
    ...(vehicle.stockDumpUploadedAt && vehicle.stockDumpSha256
      ? [
          {
            kind: "stock-read" as const,
            at: vehicle.stockDumpUploadedAt.toISOString(),
            refId: null,
            title: "Stock read uploaded",
            detail: `${vehicle.stockDumpSize ?? 0} bytes, ${vehicle.firmwareId ?? "firmware unknown"}`,
            result: null,
          },
        ]
      : []),
  ];
}

/** Bakes, flashes, logs and tuning request moves as timeline entries. */
function workEntries([, bakes, flashes, logs, requestMoves]: TimelineSources): TimelineEntry[] {
  return [
    ...bakes.map((row) => ({
      kind: "bake" as const,
      at: row.createdAt.toISOString(),
      refId: row.id,
      title: row.tuneFileId ? "Tune baked onto the stock read" : "Supplied image baked onto the stock read",
      detail: `${row.firmwareId}${row.tuneVersion ? `, version ${row.tuneVersion}` : ""}${row.expiresAt ? ", preview" : ""}`,
      result: null,
    })),
    ...flashes.map((row) => ({
      kind: row.kind === "stock" ? ("back-to-stock" as const) : ("flash" as const),
      at: row.flashedAt.toISOString(),
      refId: row.id,
      title:
        row.kind === "stock"
          ? "Back to stock"
          : `Flashed ${row.tuneTitle ?? "a supplied image"}${row.tuneVersion ? ` v${row.tuneVersion}` : ""}`,
      detail: row.message || (row.durationMs !== null ? `${Math.round(row.durationMs / 1000)} s` : ""),
      result: row.result,
    })),
    ...logs.map((row) => ({
      kind: "log" as const,
      at: row.createdAt.toISOString(),
      refId: row.id,
      title: `Data log: ${row.title}`,
      detail: "",
      result: null,
    })),
    ...requestMoves.map(({ event, number, id }) => ({
      kind: "tuning-request" as const,
      at: event.at.toISOString(),
      refId: id,
      title: `Custom tune TR-${number}: ${event.kind === "submitted" ? "asked for" : (event.toState ?? "").replace("-", " ")}`,
      detail: event.text.slice(0, 200),
      result: null,
    })),
  ];
}

/** The car's timeline, newest first. */
export async function timelineOf(db: Db, caller: VerifiedCaller, vehicleId: string): Promise<TimelineEntry[]> {
  const { vehicle, owner } = await vehicleFor(db, vehicleId, caller);
  const sources = await timelineSources(db, caller, vehicle.id, owner);
  const entries = [...ecuEntries(vehicle, sources[0]), ...workEntries(sources)];
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return entries;
}

/** A file attached to a car, with the car it belongs to. */
export type AttachedFile =
  | { kind: "stock-read"; vehicle: VehicleRow }
  | { kind: "bake"; vehicle: VehicleRow; baked: BakedRow }
  | { kind: "log"; vehicle: VehicleRow; log: LogRow };

/**
 * `stock-read`, or a baked file or data log of the car, once the caller may have it: a protected
 * tune's bake only with the download right or the grant of its pre-flight (`grantToken`), a log
 * only for its owner, the car's owner and admins (a dealer who manages the car sees it only when shared).
 */
export async function attachedFileOf(
  ctx: Pick<AppContext, "db" | "secrets">,
  caller: VerifiedCaller,
  vehicleId: string,
  fileId: string,
  grantToken: string | undefined,
): Promise<AttachedFile> {
  const { db } = ctx;
  const { vehicle, owner } = await vehicleFor(db, vehicleId, caller);
  if (fileId === "stock-read") return { kind: "stock-read", vehicle };
  const [baked] = await db
    .select()
    .from(bakedTuneFiles)
    .where(and(eq(bakedTuneFiles.id, fileId), liveBakeOf(vehicle.id)));
  if (baked) {
    // The app reads a protected tune's bake only to write it, with the grant of its pre-flight for that file.
    const granted =
      grantToken !== undefined &&
      (await grantOfToken(db, ctx.secrets, grantToken, vehicle.id, { allowUsed: true })).bakedTuneFileId === baked.id;
    if (!granted && !(await bakeAccess(db, baked, caller)).download)
      throw forbidden("The tune's author does not let buyers download it; flash it from the app");
    return { kind: "bake", vehicle, baked };
  }
  const [log] = await db
    .select()
    .from(dataLogs)
    .where(and(eq(dataLogs.id, fileId), eq(dataLogs.vehicleId, vehicle.id)));
  if (log && (log.ownerUid === caller.uid || caller.role === "admin" || owner)) return { kind: "log", vehicle, log };
  throw notFound(`File ${fileId} of vehicle ${vehicle.id}`);
}
