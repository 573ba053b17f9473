/**
 * The car's timeline a page at a time: connects, the stock read, bakes, flashes, returns to
 * stock, data logs and tuning request steps, newest first, grouped (timeline-groups.ts), for a
 * caller who reaches the car (services/tune-access.ts vehicleFor). Each source is read by keys
 * (its time, then its id) from the cursor on, so a page costs the same however long the car's
 * history is, and every record is shown on exactly one page.
 */
import { and, desc, eq, inArray, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import {
  type TimelineCursor,
  type TimelineKind,
  type TimelinePage,
  type TimelineQuery,
  timelineCursorOf,
  timelineKinds,
} from "../../../contracts/user-vehicles";
import type { Db } from "../../db/connection";
import {
  bakedTuneFiles,
  dataLogs,
  flashLogs,
  tuningRequestEvents,
  tuningRequests,
  userVehicles,
  vehicleSnapshots,
} from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import { vehicleFor } from "../tune-access";
import { liveBakeOf } from "./history";
import { connectChanged, groupTimeline, type TimelineRecord } from "./timeline-groups";

/** Rows each source gives per read; a page whose groups need more reads again from where it stopped. */
const BATCH = 100;

type Key = Parameters<typeof desc>[0] & SQLWrapper;

/** The time as fixed-width UTC text with microseconds: JavaScript dates keep only milliseconds. */
const keyOf = (at: Key) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly older than the cursor in the order (time, id), both descending. */
const olderThan = (at: Key, id: Key, cursor: TimelineCursor | undefined): SQL | undefined =>
  cursor ? sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;

interface SourceScope {
  db: Db;
  caller: VerifiedCaller;
  vehicleId: string;
  owner: boolean;
  kinds: ReadonlySet<TimelineKind>;
}

type Source = (scope: SourceScope, cursor: TimelineCursor | undefined) => Promise<TimelineRecord[]>;

/**
 * Connects, each knowing whether it changed something since the connect before it (another
 * software id, a fault code it did not have): those stand alone, the others group. A batch is read
 * with one connect more, the one before its oldest, so each is compared with its predecessor by
 * the index from the cursor on, however many connects the car has.
 */
const connects: Source = async ({ db, vehicleId }, cursor) => {
  const read = await db
    .select({
      id: vehicleSnapshots.id,
      recordedAt: vehicleSnapshots.recordedAt,
      softwareId: vehicleSnapshots.softwareId,
      batteryVolts: vehicleSnapshots.batteryVolts,
      faultCodes: vehicleSnapshots.faultCodes,
      key: keyOf(vehicleSnapshots.recordedAt),
    })
    .from(vehicleSnapshots)
    .where(
      and(
        eq(vehicleSnapshots.vehicleId, vehicleId),
        eq(vehicleSnapshots.kind, "connect"),
        olderThan(vehicleSnapshots.recordedAt, vehicleSnapshots.id, cursor),
      ),
    )
    .orderBy(desc(vehicleSnapshots.recordedAt), desc(vehicleSnapshots.id))
    .limit(BATCH + 1);
  const rows = read.slice(0, BATCH).map((row, i) => ({ ...row, changed: connectChanged(row, read[i + 1]) }));
  return rows.map(({ key, ...row }) => ({
    kind: "connect",
    key,
    id: row.id,
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
    sameAs: row.changed ? null : "unchanged",
  }));
};

/** The stock read, keyed by the car's own id. */
const stockRead: Source = async ({ db, vehicleId }, cursor) => {
  const rows = await db
    .select({
      id: userVehicles.id,
      at: userVehicles.stockDumpUploadedAt,
      key: keyOf(userVehicles.stockDumpUploadedAt),
      size: userVehicles.stockDumpSize,
      firmwareId: userVehicles.firmwareId,
    })
    .from(userVehicles)
    .where(
      and(
        eq(userVehicles.id, vehicleId),
        isNotNull(userVehicles.stockDumpSha256),
        isNotNull(userVehicles.stockDumpUploadedAt),
        olderThan(userVehicles.stockDumpUploadedAt, userVehicles.id, cursor),
      ),
    );
  return rows.map((row) => ({
    kind: "stock-read",
    key: row.key,
    id: row.id,
    at: row.at!.toISOString(),
    refId: null,
    title: "Stock read uploaded",
    detail: `${row.size ?? 0} bytes, ${row.firmwareId ?? "firmware unknown"}`,
    result: null,
    sameAs: null,
  }));
};

/** Live bakes; bakes of the same result (same file, version, patches and stock read) group. */
const bakes: Source = async ({ db, vehicleId }, cursor) => {
  const rows = await db
    .select({ row: bakedTuneFiles, key: keyOf(bakedTuneFiles.createdAt) })
    .from(bakedTuneFiles)
    .where(and(liveBakeOf(vehicleId), olderThan(bakedTuneFiles.createdAt, bakedTuneFiles.id, cursor)))
    .orderBy(desc(bakedTuneFiles.createdAt), desc(bakedTuneFiles.id))
    .limit(BATCH);
  return rows.map(({ row, key }) => ({
    kind: "bake",
    key,
    id: row.id,
    at: row.createdAt.toISOString(),
    refId: row.id,
    title: row.tuneFileId ? "Tune baked onto the stock read" : "Supplied image baked onto the stock read",
    detail: `${row.firmwareId}${row.tuneVersion ? `, version ${row.tuneVersion}` : ""}${row.expiresAt ? ", preview" : ""}`,
    result: null,
    sameAs: `${row.sha256}:${row.expiresAt ? "preview" : "kept"}`,
  }));
};

/** Flashes and returns to stock, as far as the kinds asked for. */
const flashes: Source = async ({ db, vehicleId, kinds }, cursor) => {
  const flashKinds = [
    ...(kinds.has("flash") ? ["tune" as const] : []),
    ...(kinds.has("back-to-stock") ? ["stock" as const] : []),
  ];
  const rows = await db
    .select({ row: flashLogs, key: keyOf(flashLogs.flashedAt) })
    .from(flashLogs)
    .where(
      and(
        eq(flashLogs.vehicleId, vehicleId),
        inArray(flashLogs.kind, flashKinds),
        olderThan(flashLogs.flashedAt, flashLogs.id, cursor),
      ),
    )
    .orderBy(desc(flashLogs.flashedAt), desc(flashLogs.id))
    .limit(BATCH);
  return rows.map(({ row, key }) => ({
    kind: row.kind === "stock" ? "back-to-stock" : "flash",
    key,
    id: row.id,
    at: row.flashedAt.toISOString(),
    refId: row.id,
    title:
      row.kind === "stock"
        ? "Back to stock"
        : `Flashed ${row.tuneTitle ?? "a supplied image"}${row.tuneVersion ? ` v${row.tuneVersion}` : ""}`,
    detail: row.message || (row.durationMs !== null ? `${Math.round(row.durationMs / 1000)} s` : ""),
    result: row.result,
    sameAs: null,
  }));
};

const logs: Source = async ({ db, vehicleId }, cursor) => {
  const rows = await db
    .select({ id: dataLogs.id, title: dataLogs.title, createdAt: dataLogs.createdAt, key: keyOf(dataLogs.createdAt) })
    .from(dataLogs)
    .where(and(eq(dataLogs.vehicleId, vehicleId), olderThan(dataLogs.createdAt, dataLogs.id, cursor)))
    .orderBy(desc(dataLogs.createdAt), desc(dataLogs.id))
    .limit(BATCH);
  return rows.map((row) => ({
    kind: "log",
    key: row.key,
    id: row.id,
    at: row.createdAt.toISOString(),
    refId: row.id,
    title: `Data log: ${row.title}`,
    detail: "",
    result: null,
    sameAs: null,
  }));
};

/** The car's tuning requests as they moved: the owner and admins see all, a dealer those made to them. */
const requestSteps: Source = async ({ db, caller, vehicleId, owner }, cursor) => {
  const rows = await db
    .select({ event: tuningRequestEvents, number: tuningRequests.number, key: keyOf(tuningRequestEvents.at) })
    .from(tuningRequestEvents)
    .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestEvents.requestId))
    .where(
      and(
        eq(tuningRequests.vehicleId, vehicleId),
        inArray(tuningRequestEvents.kind, ["submitted", "transition"]),
        owner || caller.role === "admin" ? undefined : eq(tuningRequests.dealerUid, caller.uid),
        olderThan(tuningRequestEvents.at, tuningRequestEvents.id, cursor),
      ),
    )
    .orderBy(desc(tuningRequestEvents.at), desc(tuningRequestEvents.id))
    .limit(BATCH);
  return rows.map(({ event, number, key }) => ({
    kind: "tuning-request",
    key,
    id: event.id,
    at: event.at.toISOString(),
    refId: event.requestId,
    title: `Custom tune TR-${number}: ${event.kind === "submitted" ? "asked for" : (event.toState ?? "").replace("-", " ")}`,
    detail: event.text.slice(0, 200),
    result: null,
    sameAs: null,
  }));
};

/** Each source with the kinds it gives. */
const SOURCES: ReadonlyArray<[Source, readonly TimelineKind[]]> = [
  [connects, ["connect"]],
  [stockRead, ["stock-read"]],
  [bakes, ["bake"]],
  [flashes, ["flash", "back-to-stock"]],
  [logs, ["log"]],
  [requestSteps, ["tuning-request"]],
];

/** Newest first: time, then id, both descending. */
const newestFirst = (a: TimelineRecord, b: TimelineRecord) =>
  a.key !== b.key ? (a.key < b.key ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

const cursorOf = (record: TimelineRecord): TimelineCursor => ({ at: record.key, id: record.id });

/**
 * The records older than `cursor` that every source has given, newest first, and where the next
 * read starts: the newest of the last rows of the sources that filled their batch (older rows of
 * the other sources may be missing until those are read further). No `next` when all is read.
 */
async function readRecords(
  scope: SourceScope,
  sources: readonly Source[],
  cursor: TimelineCursor | undefined,
): Promise<{ records: TimelineRecord[]; next?: TimelineRecord }> {
  const batches = await Promise.all(sources.map((read) => read(scope, cursor)));
  const cuts = batches.filter((batch) => batch.length >= BATCH).map((batch) => batch.at(-1)!);
  const next = cuts.sort(newestFirst)[0];
  const records = batches.flat().sort(newestFirst);
  return { records: next ? records.filter((record) => newestFirst(record, next) <= 0) : records, next };
}

/** A page of the car's timeline, newest first, and the cursor of the older page. */
export async function timelineOf(
  db: Db,
  caller: VerifiedCaller,
  vehicleId: string,
  query: TimelineQuery,
): Promise<TimelinePage> {
  const { vehicle, owner } = await vehicleFor(db, vehicleId, caller);
  const kinds = new Set(query.kind ?? timelineKinds);
  const scope: SourceScope = { db, caller, vehicleId: vehicle.id, owner, kinds };
  const sources = SOURCES.filter(([, gives]) => gives.some((kind) => kinds.has(kind))).map(([source]) => source);
  const records: TimelineRecord[] = [];
  let cursor = query.before;
  for (;;) {
    const read = await readRecords(scope, sources, cursor);
    records.push(...read.records);
    const groups = groupTimeline(records);
    // The last group shown is whole only when another one follows it.
    if (groups.length > query.limit) {
      const shown = groups.slice(0, query.limit);
      return { data: shown.map((group) => group.entry), nextCursor: timelineCursorOf(cursorOf(shown.at(-1)!.oldest)) };
    }
    if (!read.next) return { data: groups.map((group) => group.entry), nextCursor: null };
    cursor = cursorOf(read.next);
  }
}
