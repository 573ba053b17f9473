/**
 * The endpoints of tune files, tune-file patches, baked tune files and the
 * user-vehicle bakes.
 *
 * Who may do what, checked here on every request:
 * - admins: everything;
 * - a dealer: their own tune files, and bakes for the vehicles they manage,
 *   which (until the vehicles issue brings a link) means vehicles whose owner
 *   bought a tune file of theirs (server/services/vehicle-access.ts); they
 *   read such a car's stock read but never replace it, delete only the bakes
 *   they made, and grant only to such a car;
 * - a customer: inspects any image they upload, bakes for their own vehicles
 *   with tunes they bought for that vehicle, and reads a bought tune within
 *   its protection (mayView: the map-level changes; mayDownload: the bytes).
 *
 * Every refused upload leaves nothing behind: files are checked before they
 * are adopted into the blob store, and rows are written last.
 */
import { readFile } from "node:fs/promises";
import { type SQL, and, desc, eq, getTableColumns, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Patch } from "../../contracts/tune-definition";
import {
  type BakedTuneFile,
  type TuneFile,
  type TuneFilePatch,
  type LocalInspection,
  type TuneItemValues,
  type StockDifferences,
  type TuneMaps,
  type TuneMapsBase,
  type TuneFileVersion,
  type VehicleTunes,
  bakeRequestSchema,
  inspectPatchSchema,
  tuneFileCreateSchema,
  tuneFileGrantSchema,
  tuneFileList,
  tuneFilePatchInputSchema,
  tuneFilePatchList,
  tuneFilePublishSchema,
  tuneFileUpdateSchema,
  tuneFileVersionSchema,
  tuneMapsQuerySchema,
  tuneVersionQuerySchema,
  xdfImportSchema,
} from "../../contracts/tune-files";
import type { AppContext } from "../context";
import { bakedTuneFiles, tuneFilePatches, tuneFilePurchases, tuneFileVersions, tuneFiles, userVehicles, users } from "../db/schema";
import { changedItemIds, changedRanges, importXdf, patchState, readItem } from "../../domain/tune";
import { applyPatches, fixAll, verifyAll } from "../services/tune-engine";
import { HttpError, RequestValidationError, badRequest, fieldIssues, forbidden, notFound } from "../errors";
import { callerOf } from "../http/auth";
import type { Tx } from "../db/handle";
import { idParams, referencedConflict } from "../http/crud";
import { reprDigestOf, wantsSha256 } from "../http/digest";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { type UploadedFile, requireFile, withBufferedUpload, withUpload } from "../http/uploads";
import { lockFirmwareIds } from "../services/catalogue";
import type { VerifiedCaller } from "../services/identity";
import { type VehicleRow, vehicleFor } from "../services/vehicle-access";
import { domain } from "../http/domain-errors";
import {
  type FirmwareRecord,
  definitionItem,
  definitionOf,
  firmwareIdentity,
  firmwareRecord,
  patchOf,
  patchesById,
  requireFirmware,
  requireIdentified,
} from "../services/firmware-records";
import { bakeFromBlobs, inspect, readImage, readImageShared, refuseFailingChecksums, sha256Of } from "../services/tune-files";

const dealer = { role: "dealer" as const };
const admin = { role: "admin" as const };

/** Temp bakes live a day: long enough to preview and flash, short enough not to pile up. */
const TEMP_BAKE_MS = 24 * 60 * 60 * 1000;

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const isAdmin = (caller: VerifiedCaller) => caller.role === "admin";

type TuneRow = typeof tuneFiles.$inferSelect & { dealerName: string | null };
type VersionRow = typeof tuneFileVersions.$inferSelect;
type BakedRow = typeof bakedTuneFiles.$inferSelect;

const versionToApi = (row: VersionRow): TuneFileVersion => ({
  number: row.number,
  label: row.label,
  notes: row.notes,
  sha256: row.sha256,
  size: row.size,
  checksums: row.checksums as TuneFileVersion["checksums"],
  createdAt: row.createdAt.toISOString(),
});

const patchToApi = (row: typeof tuneFilePatches.$inferSelect): TuneFilePatch => ({
  id: row.id,
  title: row.title,
  description: row.description,
  firmwareIds: row.firmwareIds,
  entries: row.entries,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const tuneListSpec: ListSpec = {
  table: tuneFiles,
  id: tuneFiles.id,
  allowed: tuneFileList,
  fields: {
    title: { column: tuneFiles.title, kind: "text" },
    firmwareId: { column: tuneFiles.firmwareId, kind: "text" },
    dealerUid: { column: tuneFiles.dealerUid, kind: "text" },
    published: { column: tuneFiles.published, kind: "boolean" },
    priceCents: { column: tuneFiles.priceCents, kind: "number" },
    updatedAt: { column: tuneFiles.updatedAt, kind: "timestamp" },
    createdAt: { column: tuneFiles.createdAt, kind: "timestamp" },
  },
  search: sql`(${tuneFiles.title} || ' ' || ${tuneFiles.description} || ' ' || ${tuneFiles.firmwareId})`,
  defaultSort: [{ field: "updatedAt", order: "desc" }],
};

const patchListSpec: ListSpec = {
  table: tuneFilePatches,
  id: tuneFilePatches.id,
  allowed: tuneFilePatchList,
  fields: {
    title: { column: tuneFilePatches.title, kind: "text" },
    firmwareIds: { column: tuneFilePatches.firmwareIds, kind: "array" },
    updatedAt: { column: tuneFilePatches.updatedAt, kind: "timestamp" },
  },
  search: sql`(${tuneFilePatches.title} || ' ' || ${tuneFilePatches.description})`,
  defaultSort: [{ field: "title", order: "asc" }],
};

/** Multipart fields are strings: parse them with the contract, and booleans from "true"/"false". */
function fieldsOf<S extends z.ZodType>(schema: S, fields: Record<string, string>, flags: string[] = []): { input: z.output<S>; flags: Record<string, boolean> } {
  const values: Record<string, string> = { ...fields };
  const flagValues: Record<string, boolean> = {};
  for (const flag of flags) {
    const raw = values[flag];
    delete values[flag];
    if (raw !== undefined && raw !== "true" && raw !== "false") {
      throw new RequestValidationError("body", [{ path: flag, message: `${flag} must be true or false` }]);
    }
    flagValues[flag] = raw === "true";
  }
  const result = schema.safeParse(values);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error));
  return { input: result.data, flags: flagValues };
}

/** `patchIds` as a multipart field: a JSON array (the data provider's encoding) or comma separated. */
function patchIdsField(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [];
  let ids: unknown;
  try {
    ids = JSON.parse(raw);
  } catch {
    ids = raw.split(",").map((id) => id.trim()).filter(Boolean);
  }
  const result = z.array(z.uuid("patchIds must be ids")).max(100).safeParse(ids);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error).map((issue) => ({ ...issue, path: "patchIds" })));
  return result.data;
}

async function imageOf(file: UploadedFile): Promise<Uint8Array> {
  const buffer = await readFile(file.path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export async function tuneFileRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx;

  // -------------------------------------------------------------------------
  // Access

  const tuneColumns = { ...getTableColumns(tuneFiles), dealerName: users.displayName };

  async function tuneRow(id: string, tx: Tx | typeof db = db): Promise<TuneRow> {
    const [row] = await tx.select(tuneColumns).from(tuneFiles).leftJoin(users, eq(users.uid, tuneFiles.dealerUid)).where(eq(tuneFiles.id, id));
    if (!row) throw notFound(`Tune file ${id}`);
    return row;
  }

  async function boughtBy(uid: string, tuneFileIds: string[], tx: Tx | typeof db = db): Promise<Set<string>> {
    if (tuneFileIds.length === 0) return new Set();
    const rows = await tx
      .selectDistinct({ id: tuneFilePurchases.tuneFileId })
      .from(tuneFilePurchases)
      .where(and(eq(tuneFilePurchases.customerUid, uid), inArray(tuneFilePurchases.tuneFileId, tuneFileIds)));
    return new Set(rows.map((row) => row.id));
  }

  const buyerAllowed = (row: TuneRow, caller: VerifiedCaller) => row.buyerEmails.length === 0 || row.buyerEmails.includes((caller.email ?? "").toLowerCase());

  function accessOf(row: TuneRow, caller: VerifiedCaller, bought: boolean): TuneFile["access"] {
    const owner = isAdmin(caller) || row.dealerUid === caller.uid;
    return { owner, bought, view: owner || (bought && row.mayView), download: owner || (bought && row.mayDownload) };
  }

  /** Not visible is 404, not 403: an unpublished tune's existence is the dealer's business. */
  async function visibleTune(id: string, caller: VerifiedCaller) {
    const row = await tuneRow(id);
    const access = accessOf(row, caller, (await boughtBy(caller.uid, [row.id])).has(row.id));
    if (!access.owner && !access.bought && !(row.published && buyerAllowed(row, caller))) throw notFound(`Tune file ${id}`);
    return { row, access };
  }

  async function ownTune(id: string, caller: VerifiedCaller, tx: Tx | typeof db = db) {
    const row = await tuneRow(id, tx);
    if (!accessOf(row, caller, false).owner) {
      if (row.published || (await boughtBy(caller.uid, [row.id], tx)).has(row.id)) throw forbidden("Only the tune's dealer (or an admin) may change it");
      throw notFound(`Tune file ${id}`);
    }
    return row;
  }

  async function versionsOf(tuneFileId: string): Promise<VersionRow[]> {
    return db.select().from(tuneFileVersions).where(eq(tuneFileVersions.tuneFileId, tuneFileId)).orderBy(desc(tuneFileVersions.number));
  }

  async function versionRow(tuneFileId: string, number: number): Promise<VersionRow> {
    const [row] = await db.select().from(tuneFileVersions).where(and(eq(tuneFileVersions.tuneFileId, tuneFileId), eq(tuneFileVersions.number, number)));
    if (!row) throw notFound(`Version ${number} of tune file ${tuneFileId}`);
    return row;
  }

  /** Owners and admins get the versions with the detail; lists and buyers do not. */
  async function tuneToApi(row: TuneRow, access: TuneFile["access"], detail = true): Promise<TuneFile> {
    const versions = detail && access.owner ? (await versionsOf(row.id)).map(versionToApi) : undefined;
    return {
      id: row.id,
      dealerUid: row.dealerUid,
      dealerName: row.dealerName,
      firmwareId: row.firmwareId,
      title: row.title,
      description: row.description,
      currentVersion: row.currentVersion,
      published: row.published,
      priceCents: row.priceCents,
      currency: row.currency as TuneFile["currency"],
      // Who else may buy is the dealer's list, not something to show other customers.
      buyerEmails: access.owner ? row.buyerEmails : [],
      mayView: row.mayView,
      mayDownload: row.mayDownload,
      access,
      ...(versions && { versions }),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }


  // -------------------------------------------------------------------------
  // Inspection

  /** With `definition=true`, the identified firmware's definition too: whoever holds an image may see its maps. */
  app.post("/tune-files/inspect", { schema: { querystring: z.strictObject({ definition: z.stringbool().default(false) }) } }, async (request, reply) =>
    withBufferedUpload(request, reply, ctx, async (upload) => {
      const report: LocalInspection = await inspect(ctx, requireFile(upload).bytes);
      if ((request.query as { definition: boolean }).definition) report.definition = report.firmwareId ? await definitionOf(db, report.firmwareId) : null;
      return report;
    }),
  );

  app.post("/tune-files/inspect/patch", { schema: { body: inspectPatchSchema } }, async (request) => {
    const body = request.body as z.output<typeof inspectPatchSchema>;
    const caller = callerOf(request);
    const { row, access } = await visibleTune(body.tuneFileId, caller);
    if (!access.owner && !access.bought) throw forbidden("Buy the tune first to preview patches on it");
    const version = await versionRow(row.id, body.version ?? row.currentVersion);
    const record = await firmwareRecord(db, row.firmwareId);
    const patches = await patchesById(db, body.patchIds);
    const image = await readImage(ctx, version.sha256);
    const outcome = await domain(() => applyPatches(image, patches, { firmwareId: record.firmwareId, checksums: record.checksums, inPlace: true }));
    const report = await inspect(ctx, outcome.image, { record, view: access.view });
    return { ...report, applied: outcome.patches, fixed: outcome.checksums?.fixed ?? [] };
  });

  // -------------------------------------------------------------------------
  // Tune files

  /** A checked image for a tune: its firmware identified, its checksums verified or (when asked) fixed. */
  async function acceptImage(file: UploadedFile, fix: boolean, expectedFirmware?: string) {
    const image = await imageOf(file);
    const record = await requireFirmware(db, image, expectedFirmware);
    if (!fix) refuseFailingChecksums(image, record);
    let sha256 = file.sha256;
    if (fix && verifyAll(image, record.checksums).some((r) => !r.valid)) {
      await domain(() => fixAll(image, record.checksums));
      sha256 = await ctx.blobs.put(image);
    } else await ctx.blobs.adopt(file.path, file.sha256);
    const checksums = verifyAll(image, record.checksums).map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed }));
    return { record, sha256, size: image.length, checksums };
  }

  app.post("/tune-files", { config: dealer }, async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUpload(request, ctx, async (upload) => {
      const { input, flags } = fieldsOf(tuneFileCreateSchema, upload.fields, ["fixChecksums"]);
      const image = await acceptImage(requireFile(upload), flags.fixChecksums);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(tuneFiles)
          .values({ dealerUid: caller.uid, firmwareId: image.record.firmwareId, title: input.title, description: input.description })
          .returning();
        await tx.insert(tuneFileVersions).values({
          tuneFileId: row.id,
          number: 1,
          label: input.version,
          notes: input.notes,
          sha256: image.sha256,
          size: image.size,
          checksums: image.checksums,
          createdBy: caller.uid,
        });
        return row.id;
      });
    });
    const row = await tuneRow(created);
    return reply.status(201).send(await tuneToApi(row, accessOf(row, caller, false)));
  });

  app.get("/tune-files", { config: { list: tuneListSpec } }, async (request) => {
    const caller = callerOf(request);
    const query = listQueryOf(request, tuneListSpec);
    const bought = sql`EXISTS (SELECT 1 FROM ${tuneFilePurchases} WHERE ${tuneFilePurchases.tuneFileId} = ${tuneFiles.id} AND ${tuneFilePurchases.customerUid} = ${caller.uid})`;
    const forSale = sql`(${tuneFiles.published} AND (cardinality(${tuneFiles.buyerEmails}) = 0 OR ${(caller.email ?? "").toLowerCase()} = ANY(${tuneFiles.buyerEmails})))`;
    const scope: SQL | undefined = isAdmin(caller) ? undefined : or(eq(tuneFiles.dealerUid, caller.uid), bought, forSale);
    const page = await runList(
      db,
      tuneListSpec,
      query,
      ({ where, orderBy, limit, offset }) =>
        db.select(tuneColumns).from(tuneFiles).leftJoin(users, eq(users.uid, tuneFiles.dealerUid)).where(where).orderBy(...orderBy).limit(limit).offset(offset),
      scope,
    );
    const mine = await boughtBy(caller.uid, page.data.map((row) => row.id));
    const data = page.data.map((row) => tuneToApi(row, accessOf(row, caller, mine.has(row.id)), false));
    return { ...page, data: await Promise.all(data) };
  });

  app.get("/tune-files/:id", { schema: { params: idParams } }, async (request) => {
    const { row, access } = await visibleTune((request.params as { id: string }).id, callerOf(request));
    return tuneToApi(row, access);
  });

  /** The current version's inspection, within protection (changes only with view). */
  app.get("/tune-files/:id/inspection", { schema: { params: idParams, querystring: tuneVersionQuerySchema } }, async (request) => {
    const { row, access } = await visibleTune((request.params as { id: string }).id, callerOf(request));
    if (!access.owner && !access.bought) throw forbidden("Buy the tune first to inspect it");
    const { version } = request.query as { version?: number };
    if (version !== undefined && version !== row.currentVersion && !access.owner) throw forbidden("Buyers get the current version only");
    const stored = await versionRow(row.id, version ?? row.currentVersion);
    return inspect(ctx, await readImage(ctx, stored.sha256), { record: await firmwareRecord(db, row.firmwareId), view: access.view });
  });

  /**
   * What the viewer reads: the tune's image (the current version, or another
   * for owners) and its base, the stock file or another tune of the same
   * firmware that the caller may view as well; view is checked on both.
   */
  async function viewedImages(id: string, query: z.output<typeof tuneMapsQuerySchema>, caller: VerifiedCaller) {
    const { row, access } = await visibleTune(id, caller);
    if (!access.view) throw forbidden(access.bought ? "The tune's author lets buyers flash it, not view its maps" : "Buy the tune first");
    if (query.version !== undefined && query.version !== row.currentVersion && !access.owner) throw forbidden("Buyers get the current version only");
    const stored = await versionRow(row.id, query.version ?? row.currentVersion);
    const record = await firmwareIdentity(db, row.firmwareId);
    let base: { info: TuneMapsBase; sha256: string } | null = null;
    if (query.against !== undefined) {
      const other = await visibleTune(query.against, caller);
      if (!other.access.view) throw forbidden(`The author of "${other.row.title}" does not let you view its maps, so it cannot be compared with`);
      if (other.row.firmwareId !== row.firmwareId) {
        const message = `"${other.row.title}" is for firmware ${other.row.firmwareId}, not ${row.firmwareId}`;
        throw badRequest("Invalid query", message, [{ path: "against", message }]);
      }
      const otherVersion = await versionRow(other.row.id, other.row.currentVersion);
      base = { info: { kind: "tune", tuneFileId: other.row.id, title: other.row.title }, sha256: otherVersion.sha256 };
    } else if (record.stockSha256) base = { info: { kind: "stock" }, sha256: record.stockSha256 };
    return { row, stored, base };
  }

  /** The definition and the items changed from the base; values come per item. No bytes leave the server. */
  app.get("/tune-files/:id/maps", { schema: { params: idParams, querystring: tuneMapsQuerySchema } }, async (request): Promise<TuneMaps> => {
    const { row, stored, base } = await viewedImages((request.params as { id: string }).id, request.query as z.output<typeof tuneMapsQuerySchema>, callerOf(request));
    const definition = await definitionOf(db, row.firmwareId);
    const changed =
      definition && base ? await domain(async () => changedItemIds(await readImageShared(ctx, base.sha256), await readImageShared(ctx, stored.sha256), definition)) : [];
    return { firmwareId: row.firmwareId, version: stored.number, definition, base: base?.info ?? null, changed };
  });

  /** One item's values and its base's, in physical units. */
  app.get(
    "/tune-files/:id/maps/:itemId",
    { schema: { params: z.strictObject({ id: idParams.shape.id, itemId: z.string().min(1).max(200) }), querystring: tuneMapsQuerySchema } },
    async (request): Promise<TuneItemValues> => {
      const { id, itemId } = request.params as { id: string; itemId: string };
      const { row, stored, base } = await viewedImages(id, request.query as z.output<typeof tuneMapsQuerySchema>, callerOf(request));
      const item = await definitionItem(db, row.firmwareId, itemId);
      if (!item) throw notFound(`Map ${itemId} in the definition of firmware ${row.firmwareId}`);
      return domain(async () => ({
        values: readItem(await readImageShared(ctx, stored.sha256), item),
        base: base ? readItem(await readImageShared(ctx, base.sha256), item) : null,
      }));
    },
  );

  app.get("/tune-files/:id/download", { schema: { params: idParams, querystring: tuneVersionQuerySchema } }, async (request, reply) => {
    const { row, access } = await visibleTune((request.params as { id: string }).id, callerOf(request));
    if (!access.download) throw forbidden(access.bought ? "The tune's author does not let buyers download it; flash it from the app" : "Buy the tune first");
    const { version } = request.query as { version?: number };
    if (version !== undefined && version !== row.currentVersion && !access.owner) throw forbidden("Buyers get the current version only");
    const stored = await versionRow(row.id, version ?? row.currentVersion);
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-disposition", `attachment; filename="${row.firmwareId}-v${stored.number}.bin"`)
      .header("x-content-sha256", stored.sha256)
      .send(ctx.blobs.stream(stored.sha256));
  });

  /**
   * The stock file's bytes where this tune's differ, for a hex diff against
   * stock: laid over the tune's own bytes they make the stock image, while
   * giving away no stock byte that the tune does not change (the stock file
   * itself is for admins only). For whoever may download the tune.
   */
  app.get("/tune-files/:id/stock-differences", { schema: { params: idParams, querystring: tuneVersionQuerySchema } }, async (request): Promise<StockDifferences> => {
    const { row, access } = await visibleTune((request.params as { id: string }).id, callerOf(request));
    if (!access.download) throw forbidden(access.bought ? "The tune's author does not let buyers download it, so its bytes cannot be compared" : "Buy the tune first");
    const { version } = request.query as { version?: number };
    if (version !== undefined && version !== row.currentVersion && !access.owner) throw forbidden("Buyers get the current version only");
    const stored = await versionRow(row.id, version ?? row.currentVersion);
    const { stockSha256 } = await firmwareIdentity(db, row.firmwareId);
    if (!stockSha256) throw notFound(`A stock file of firmware ${row.firmwareId}`);
    const [stock, tune] = await Promise.all([readImageShared(ctx, stockSha256), readImageShared(ctx, stored.sha256)]);
    const regions = changedRanges(stock, tune, 0).map(({ start, end }) => ({ start, bytes: Buffer.from(stock.buffer, stock.byteOffset + start, end - start + 1).toString("base64") }));
    return { size: stock.length, regions };
  });

  app.patch("/tune-files/:id", { schema: { params: idParams, body: tuneFileUpdateSchema } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const body = request.body as z.output<typeof tuneFileUpdateSchema>;
    await db.transaction(async (tx) => {
      await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
      await ownTune(id, caller, tx);
      if (body.currentVersion !== undefined) {
        const [exists] = await tx.select({ id: tuneFileVersions.id }).from(tuneFileVersions).where(and(eq(tuneFileVersions.tuneFileId, id), eq(tuneFileVersions.number, body.currentVersion)));
        if (!exists) throw badRequest("Invalid body", `no version ${body.currentVersion}`, [{ path: "currentVersion", message: `no version ${body.currentVersion}` }]);
      }
      await tx.update(tuneFiles).set({ ...body, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
    });
    const row = await tuneRow(id);
    return tuneToApi(row, accessOf(row, caller, false));
  });

  app.delete("/tune-files/:id", { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    await db.transaction(async (tx) => {
      await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
      const row = await ownTune(id, caller, tx);
      // A bought tune is a licence someone paid for: unpublish it instead.
      const buyers = await tx.select({ id: tuneFilePurchases.id, vehicleId: tuneFilePurchases.vehicleId }).from(tuneFilePurchases).where(eq(tuneFilePurchases.tuneFileId, id)).limit(20);
      if (buyers.length) throw referencedConflict(`Tune file "${row.title}"`, buyers.map((b) => ({ resource: "purchase", id: b.id, label: `for vehicle ${b.vehicleId}` })));
      await tx.delete(tuneFiles).where(eq(tuneFiles.id, id));
    });
    return reply.status(204).send();
  });

  app.post("/tune-files/:id/blob", { schema: { params: idParams } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const current = await ownTune(id, caller);
    await withUpload(request, ctx, async (upload) => {
      const { input, flags } = fieldsOf(tuneFileVersionSchema, upload.fields, ["fixChecksums"]);
      const image = await acceptImage(requireFile(upload), flags.fixChecksums, current.firmwareId);
      await db.transaction(async (tx) => {
        const [locked] = await tx.select().from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
        if (!locked) throw notFound(`Tune file ${id}`);
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${tuneFileVersions.number}), 0)::int + 1` })
          .from(tuneFileVersions)
          .where(eq(tuneFileVersions.tuneFileId, id));
        await tx.insert(tuneFileVersions).values({
          tuneFileId: id,
          number: next,
          label: input.version,
          notes: input.notes,
          sha256: image.sha256,
          size: image.size,
          checksums: image.checksums,
          createdBy: caller.uid,
        });
        await tx.update(tuneFiles).set({ currentVersion: next, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
      });
    });
    const row = await tuneRow(id);
    return tuneToApi(row, accessOf(row, caller, false));
  });

  app.put("/tune-files/:id/publish", { schema: { params: idParams, body: tuneFilePublishSchema } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const body = request.body as z.output<typeof tuneFilePublishSchema>;
    await ownTune(id, caller);
    await db
      .update(tuneFiles)
      .set({
        published: true,
        priceCents: body.priceCents,
        currency: body.currency,
        buyerEmails: [...new Set(body.buyerEmails)],
        ...(body.mayView !== undefined && { mayView: body.mayView }),
        ...(body.mayDownload !== undefined && { mayDownload: body.mayDownload }),
        updatedAt: new Date(),
      })
      .where(eq(tuneFiles.id, id));
    const row = await tuneRow(id);
    return tuneToApi(row, accessOf(row, caller, false));
  });

  app.put("/tune-files/:id/unpublish", { schema: { params: idParams } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    await ownTune(id, caller);
    await db.update(tuneFiles).set({ published: false, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
    const row = await tuneRow(id);
    return tuneToApi(row, accessOf(row, caller, false));
  });

  /**
   * A purchase without payment (the marketplace issue replaces it with orders):
   * an admin grants any tune to any vehicle; a dealer grants their own tune
   * only to a vehicle they already reach (its owner bought from them, see
   * vehicleFor). Any other vehicle gets the answer an unknown id gets, so a
   * grant neither hands a dealer a stranger's car nor tells that it exists.
   */
  app.post("/tune-files/:id/grant", { config: dealer, schema: { params: idParams, body: tuneFileGrantSchema } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const { vehicleId } = request.body as z.output<typeof tuneFileGrantSchema>;
    const tune = await ownTune(id, caller);
    const noVehicle = () => badRequest("Invalid body", `no vehicle ${vehicleId}`, [{ path: "vehicleId", message: "no such vehicle" }]);
    const { vehicle } = await vehicleFor(db, vehicleId, caller).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? noVehicle() : error;
    });
    if (vehicle.firmwareId && vehicle.firmwareId !== tune.firmwareId) {
      const message = `the vehicle runs firmware ${vehicle.firmwareId}, the tune is for ${tune.firmwareId}`;
      throw new HttpError(422, "Wrong firmware", message, [{ path: "vehicleId", message }]);
    }
    const [created] = await db
      .insert(tuneFilePurchases)
      .values({ customerUid: vehicle.ownerUid, tuneFileId: id, vehicleId, grantedBy: caller.uid })
      .onConflictDoNothing()
      .returning();
    return reply.status(created ? 201 : 200).send({ tuneFileId: id, vehicleId, customerUid: vehicle.ownerUid, created: Boolean(created) });
  });

  // -------------------------------------------------------------------------
  // Tune-file patches

  app.get("/tune-file-patches", { config: { list: patchListSpec } }, async (request) => {
    const query = listQueryOf(request, patchListSpec);
    const page = await runList(db, patchListSpec, query, ({ where, orderBy, limit, offset }) =>
      db.select().from(tuneFilePatches).where(where).orderBy(...orderBy).limit(limit).offset(offset),
    );
    return { ...page, data: page.data.map(patchToApi) };
  });

  app.get("/tune-file-patches/:id", { schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    const [row] = await db.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id));
    if (!row) throw notFound(`Tune-file patch ${id}`);
    return patchToApi(row);
  });

  /**
   * A patch must fit every firmware it names, and where that firmware has a
   * stock file its base bytes must be there (or the patch already applied):
   * a patch whose base does not match stock is for another firmware.
   */
  async function checkPatchAgainstFirmware(tx: Tx, patch: Patch, path = "entries") {
    await lockFirmwareIds(tx, patch.firmwareIds);
    for (const firmwareId of patch.firmwareIds) {
      const record = await firmwareRecord(tx, firmwareId);
      patch.entries.forEach((entry, i) => {
        if (entry.address + entry.patch.length / 2 > record.imageSize) {
          const message = `entry at 0x${entry.address.toString(16).toUpperCase()} runs past the end of ${firmwareId} images (${record.imageSize} bytes)`;
          throw badRequest("Invalid body", message, [{ path: `${path}.${i}.address`, message }]);
        }
      });
      if (record.stockSha256) {
        const state = patchState(await readImage(ctx, record.stockSha256), patch);
        if (state.state === "conflict") {
          const addresses = state.conflicts.map((a) => `0x${a.toString(16).toUpperCase()}`);
          const message = `the base bytes do not match ${firmwareId}'s stock file at ${addresses.join(", ")}`;
          throw new HttpError(422, "Patch does not fit the firmware", message, [{ path, message, firmwareId, addresses: state.conflicts }]);
        }
      }
    }
  }

  app.put("/tune-file-patches", { config: admin, schema: { body: tuneFilePatchInputSchema } }, async (request, reply) => {
    const input = request.body as z.output<typeof tuneFilePatchInputSchema>;
    const row = await db.transaction(async (tx) => {
      await checkPatchAgainstFirmware(tx, input);
      const values = { title: input.title, description: input.description, firmwareIds: input.firmwareIds, entries: input.entries };
      if (input.id) {
        const [updated] = await tx.update(tuneFilePatches).set({ ...values, updatedAt: new Date() }).where(eq(tuneFilePatches.id, input.id)).returning();
        if (!updated) throw notFound(`Tune-file patch ${input.id}`);
        return updated;
      }
      const [created] = await tx.insert(tuneFilePatches).values(values).returning();
      return created;
    });
    return reply.status(input.id ? 200 : 201).send(patchToApi(row));
  });

  app.delete("/tune-file-patches/:id", { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id)).for("update");
      if (!row) throw notFound(`Tune-file patch ${id}`);
      // Kept bakes would lose the patch at the next rebake; expired previews do not count.
      const bakes = await tx
        .select({ id: bakedTuneFiles.id, vehicleId: bakedTuneFiles.vehicleId })
        .from(bakedTuneFiles)
        .where(and(sql`${bakedTuneFiles.patchIds} @> ARRAY[${id}]::uuid[]`, or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))))
        .limit(20);
      if (bakes.length) throw referencedConflict(`Patch "${row.title}"`, bakes.map((b) => ({ resource: "baked tune file", id: b.id, label: `for vehicle ${b.vehicleId}` })));
      await tx.delete(tuneFilePatches).where(eq(tuneFilePatches.id, id));
    });
    return reply.status(204).send();
  });

  app.get("/tune-file-patches/:id/compatible", { config: dealer, schema: { params: idParams } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const [row] = await db.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id));
    if (!row) throw notFound(`Tune-file patch ${id}`);
    const patch = patchOf(row);
    const firmware = [];
    for (const firmwareId of row.firmwareIds) {
      const record = await firmwareRecord(db, firmwareId).catch(() => null);
      firmware.push({
        firmwareId,
        known: record !== null,
        stockState: record?.stockSha256 ? patchState(await readImage(ctx, record.stockSha256), patch).state : null,
      });
    }
    const tunes = await db
      .select()
      .from(tuneFiles)
      .where(and(inArray(tuneFiles.firmwareId, row.firmwareIds), isAdmin(caller) ? undefined : eq(tuneFiles.dealerUid, caller.uid)))
      .orderBy(tuneFiles.title)
      .limit(100);
    const tuneStates = [];
    for (const tune of tunes) {
      const version = await versionRow(tune.id, tune.currentVersion);
      tuneStates.push({ id: tune.id, title: tune.title, firmwareId: tune.firmwareId, version: version.number, state: patchState(await readImage(ctx, version.sha256), patch).state });
    }
    return { firmware, tuneFiles: tuneStates };
  });

  /**
   * Applies patches to an uploaded image and answers the result with its
   * checksum report. Tools that send `Accept: application/octet-stream` get
   * the bytes, with the report in `x-tune-report` (URI-encoded JSON); the
   * image's SHA-256 comes only when asked for (RFC 9530: `Want-Repr-Digest:
   * sha-256=1` answered by the trailer `Repr-Digest`), because hashing 8 MiB
   * takes a fifth of the request and the caller holds the bytes it was sent.
   * The browser gets one JSON answer with the image as base64 and its
   * `sha256`, written by hand because JSON.stringify would scan the 11 MB
   * string for characters to escape that base64 never has. An image whose
   * checksums already fail is refused unless fixChecksums=true: patching must
   * not hide a bad read.
   */
  app.post("/tune-file-patches/apply", { config: dealer }, async (request, reply) =>
    withBufferedUpload(request, reply, ctx, async (upload) => {
      const { flags } = fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields, ["fixChecksums"]);
      const patchIds = patchIdsField(upload.fields.patchIds);
      if (patchIds.length === 0) throw new RequestValidationError("body", [{ path: "patchIds", message: "choose at least one patch" }]);
      const image = requireFile(upload).bytes;
      const record = requireIdentified(await ctx.catalogue.identify(image));
      if (!flags.fixChecksums) refuseFailingChecksums(image, record);
      const patches = await ctx.catalogue.patches(patchIds);
      const outcome = await domain(() => applyPatches(image, patches, { firmwareId: record.firmwareId, checksums: record.checksums, inPlace: true }));
      const fix = outcome.checksums!;
      const report = {
        firmwareId: record.firmwareId,
        size: outcome.image.length,
        patches: outcome.patches,
        fixed: fix.fixed,
        checksums: fix.results.map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed })),
      };
      const bytes = Buffer.from(outcome.image.buffer, outcome.image.byteOffset, outcome.image.byteLength);
      if (request.headers.accept?.includes("application/octet-stream")) {
        reply
          .header("content-type", "application/octet-stream")
          .header("content-disposition", `attachment; filename="${record.firmwareId}-patched.bin"`)
          .header("x-tune-report", encodeURIComponent(JSON.stringify(report)));
        if (wantsSha256(request.headers)) reply.trailer("repr-digest", (_reply, _payload, done) => done(null, reprDigestOf(outcome.image)));
        return reply.send(bytes);
      }
      const json = JSON.stringify({ ...report, sha256: sha256Of(outcome.image) });
      return reply.type("application/json").send(`${json.slice(0, -1)},"image":"${bytes.toString("base64")}"}`);
    }),
  );

  /** TunerPro XDF → the definition (for the firmware record) and its XDFPATCH entries as patches; stored only without dryRun. */
  app.post("/tune-file-patches/import-xdf", { config: admin, schema: { body: xdfImportSchema } }, async (request, reply) => {
    const body = request.body as z.output<typeof xdfImportSchema>;
    const record = await firmwareRecord(db, body.firmwareId);
    const imported = await domain(() => importXdf(body.xml, { firmwareId: record.firmwareId, imageSize: record.imageSize }));
    if (body.dryRun) return imported;
    if (imported.patches.length === 0) throw badRequest("No patches", "the XDF has no XDFPATCH entries to store", [{ path: "xml", message: "no XDFPATCH elements" }]);
    const rows = await db.transaction(async (tx) => {
      const stored = [];
      for (const [i, patch] of imported.patches.entries()) {
        await checkPatchAgainstFirmware(tx, patch, `patches.${i}`);
        const [row] = await tx.insert(tuneFilePatches).values({ title: patch.title, description: patch.description, firmwareIds: patch.firmwareIds, entries: patch.entries }).returning();
        stored.push(patchToApi(row));
      }
      return stored;
    });
    return reply.status(201).send({ ...imported, patches: rows });
  });

  // -------------------------------------------------------------------------
  // Vehicles: the minimal form baking needs

  const vehicleToApi = (vehicle: VehicleRow): VehicleTunes["vehicle"] => ({
    id: vehicle.id,
    name: vehicle.name,
    vin: vehicle.vin,
    firmwareId: vehicle.firmwareId,
    stockDump: vehicle.stockDumpSha256 ? { sha256: vehicle.stockDumpSha256, size: vehicle.stockDumpSize!, slot: vehicle.stockDumpSlot } : null,
  });

  /** The caller's vehicles (admins: all; dealers: also the ones they manage), for choosing where a tune goes. */
  app.get("/user-vehicles", async (request) => {
    const caller = callerOf(request);
    const managed = sql`EXISTS (SELECT 1 FROM ${tuneFilePurchases} JOIN ${tuneFiles} ON ${tuneFiles.id} = ${tuneFilePurchases.tuneFileId} WHERE ${tuneFilePurchases.vehicleId} = ${userVehicles.id} AND ${tuneFiles.dealerUid} = ${caller.uid})`;
    const rows = await db
      .select()
      .from(userVehicles)
      .where(isAdmin(caller) ? undefined : or(eq(userVehicles.ownerUid, caller.uid), caller.role === "dealer" ? managed : undefined))
      .orderBy(userVehicles.name, userVehicles.id)
      .limit(200);
    return { data: rows.map((row) => ({ ...vehicleToApi(row), ownerUid: row.ownerUid })), total: rows.length };
  });

  const slotParams = z.strictObject({ id: z.uuid("id must be a UUID"), x: z.coerce.number().int("slot is a whole number").min(0).max(15, "slot is 0 to 15") });

  app.post("/user-vehicles/:id/upload-tune-dump/:x", { schema: { params: slotParams } }, async (request) => {
    const caller = callerOf(request);
    const { id, x } = request.params as z.output<typeof slotParams>;
    const { vehicle, owner } = await vehicleFor(db, id, caller);
    // The stock read is the owner's (the app's read of their ECU): a dealer who manages the car reads it, never replaces it.
    if (!owner && !isAdmin(caller)) throw forbidden("Only the vehicle's owner (or an admin) replaces its stock read");
    return withUpload(request, ctx, async (upload) => {
      const file = requireFile(upload);
      const image = await imageOf(file);
      const record = await requireFirmware(db, image);
      // A read that fails its own checksums is corrupt: storing it would poison every bake.
      refuseFailingChecksums(image, record, "the read");
      await ctx.blobs.adopt(file.path, file.sha256);
      const [updated] = await db
        .update(userVehicles)
        .set({ firmwareId: record.firmwareId, stockDumpSha256: file.sha256, stockDumpSize: file.size, stockDumpSlot: x, stockDumpUploadedAt: new Date(), updatedAt: new Date() })
        .where(eq(userVehicles.id, vehicle.id))
        .returning();
      return vehicleToApi(updated);
    });
  });

  app.get("/user-vehicles/:id/download-tune-dump", { schema: { params: idParams } }, async (request, reply) => {
    const { vehicle } = await vehicleFor(db, (request.params as { id: string }).id, callerOf(request));
    if (!vehicle.stockDumpSha256) throw notFound(`A stock read for vehicle ${vehicle.id}`);
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-disposition", `attachment; filename="${vehicle.vin ?? vehicle.id}-stock.bin"`)
      .header("x-content-sha256", vehicle.stockDumpSha256)
      .send(ctx.blobs.stream(vehicle.stockDumpSha256));
  });

  function dumpOf(vehicle: VehicleRow): { sha256: string; record: Promise<FirmwareRecord> } {
    if (!vehicle.stockDumpSha256 || !vehicle.firmwareId) {
      throw new HttpError(409, "No stock read", `Vehicle ${vehicle.name} has no stock read yet; upload one with upload-tune-dump first`);
    }
    return { sha256: vehicle.stockDumpSha256, record: firmwareRecord(db, vehicle.firmwareId) };
  }

  async function storeBake(values: Omit<typeof bakedTuneFiles.$inferInsert, "sha256" | "size" | "report">, result: Awaited<ReturnType<typeof bakeFromBlobs>>) {
    await ctx.blobs.put(result.image);
    const [row] = await db
      .insert(bakedTuneFiles)
      .values({ ...values, sha256: result.sha256, size: result.image.length, report: result.report as unknown as Record<string, unknown> })
      .returning();
    return row;
  }

  app.post("/user-vehicles/:id/temp-bake/:x", { schema: { params: slotParams, body: bakeRequestSchema } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id, x } = request.params as z.output<typeof slotParams>;
    const body = request.body as z.output<typeof bakeRequestSchema>;
    const { vehicle } = await vehicleFor(db, id, caller);
    const dump = dumpOf(vehicle);
    const tune = await tuneRow(body.tuneFileId).catch(() => {
      throw badRequest("Invalid body", `no tune file ${body.tuneFileId}`, [{ path: "tuneFileId", message: "no such tune file" }]);
    });
    const isOwnerDealer = isAdmin(caller) || tune.dealerUid === caller.uid;
    if (!isOwnerDealer) {
      const [purchase] = await db
        .select({ id: tuneFilePurchases.id })
        .from(tuneFilePurchases)
        .where(and(eq(tuneFilePurchases.tuneFileId, tune.id), eq(tuneFilePurchases.vehicleId, vehicle.id)));
      if (!purchase) throw forbidden(`Tune "${tune.title}" was not bought for vehicle ${vehicle.name}`);
    }
    const record = await dump.record;
    if (tune.firmwareId !== record.firmwareId) {
      const message = `the tune is for ${tune.firmwareId}; the vehicle runs ${record.firmwareId}`;
      throw new HttpError(422, "Wrong firmware", message, [{ path: "tuneFileId", message }]);
    }
    const version = await versionRow(tune.id, tune.currentVersion);
    const patches = await patchesById(db, body.patchIds);
    const result = await bakeFromBlobs(ctx, { record, dumpSha256: dump.sha256, tune: version.sha256, direct: false, patches });
    const row = await storeBake(
      { vehicleId: vehicle.id, firmwareId: record.firmwareId, tuneFileId: tune.id, tuneVersion: version.number, patchIds: body.patchIds, slot: x, expiresAt: new Date(Date.now() + TEMP_BAKE_MS), createdBy: caller.uid },
      result,
    );
    return reply.status(201).send(await bakedToApi(row, caller));
  });

  app.post("/user-vehicles/:id/direct-bake", { config: dealer, schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { vehicle } = await vehicleFor(db, (request.params as { id: string }).id, caller);
    const dump = dumpOf(vehicle);
    const row = await withUpload(request, ctx, async (upload) => {
      fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields);
      const patchIds = patchIdsField(upload.fields.patchIds);
      const file = requireFile(upload);
      const record = await dump.record;
      const supplied = await imageOf(file);
      await requireFirmware(db, supplied, record.firmwareId);
      const patches = await patchesById(db, patchIds);
      const result = await bakeFromBlobs(ctx, { record, dumpSha256: dump.sha256, tune: supplied, direct: true, patches });
      // Kept only once the bake succeeded: rebake-all starts again from it.
      await ctx.blobs.adopt(file.path, file.sha256);
      return storeBake({ vehicleId: vehicle.id, firmwareId: record.firmwareId, sourceSha256: file.sha256, patchIds, createdBy: caller.uid }, result);
    });
    return reply.status(201).send(await bakedToApi(row, caller));
  });

  app.get("/user-vehicles/:id/tune-files", { schema: { params: idParams } }, async (request): Promise<VehicleTunes> => {
    const caller = callerOf(request);
    const { vehicle } = await vehicleFor(db, (request.params as { id: string }).id, caller);
    const purchases = await db.select({ tuneFileId: tuneFilePurchases.tuneFileId }).from(tuneFilePurchases).where(eq(tuneFilePurchases.vehicleId, vehicle.id));
    const bought = [];
    for (const { tuneFileId } of purchases) {
      const row = await tuneRow(tuneFileId);
      // Bought for this vehicle: its owner holds the licence, whoever else is looking.
      bought.push(await tuneToApi(row, accessOf(row, caller, true), false));
    }
    const baked = await db
      .select()
      .from(bakedTuneFiles)
      .where(and(eq(bakedTuneFiles.vehicleId, vehicle.id), or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))))
      .orderBy(desc(bakedTuneFiles.createdAt))
      .limit(100);
    return { vehicle: vehicleToApi(vehicle), bought, baked: await Promise.all(baked.map((row) => bakedToApi(row, caller))) };
  });

  // -------------------------------------------------------------------------
  // Baked tune files

  /** What the caller may do with a bake: protection follows the tune it was made from. Whoever may see the vehicle may see (and delete) its bakes; a direct bake carries no protection of a tune. */
  async function bakeAccess(row: BakedRow, caller: VerifiedCaller): Promise<{ view: boolean; download: boolean }> {
    await vehicleFor(db, row.vehicleId, caller).catch(() => {
      throw notFound(`Baked tune file ${row.id}`);
    });
    if (!row.tuneFileId) return { view: true, download: true };
    const { view, download } = accessOf(await tuneRow(row.tuneFileId), caller, true);
    return { view, download };
  }

  async function bakedToApi(row: BakedRow, caller: VerifiedCaller): Promise<BakedTuneFile> {
    const access = await bakeAccess(row, caller);
    const report = row.report as Record<string, unknown>;
    // Without view rights the carried ranges would show where the tune differs from stock.
    const shown = access.view ? report : { firmwareId: report.firmwareId, patches: report.patches, fixPasses: report.fixPasses, checksums: report.checksums };
    return {
      id: row.id,
      vehicleId: row.vehicleId,
      firmwareId: row.firmwareId,
      tuneFileId: row.tuneFileId,
      tuneVersion: row.tuneVersion,
      patchIds: row.patchIds,
      sha256: row.sha256,
      size: row.size,
      slot: row.slot,
      expiresAt: iso(row.expiresAt),
      report: shown,
      download: access.download,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  async function bakedRow(id: string): Promise<BakedRow> {
    const [row] = await db
      .select()
      .from(bakedTuneFiles)
      .where(and(eq(bakedTuneFiles.id, id), or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))));
    if (!row) throw notFound(`Baked tune file ${id}`);
    return row;
  }

  app.get("/baked-tune-files/:id", { schema: { params: idParams } }, async (request) => bakedToApi(await bakedRow((request.params as { id: string }).id), callerOf(request)));

  app.get("/baked-tune-files/:id/download", { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await bakedRow((request.params as { id: string }).id);
    const access = await bakeAccess(row, caller);
    if (!access.download) throw forbidden("The tune's author does not let buyers download it; flash it from the app");
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-disposition", `attachment; filename="${row.firmwareId}-baked-${row.sha256.slice(0, 8)}.bin"`)
      .header("x-content-sha256", row.sha256)
      .send(ctx.blobs.stream(row.sha256));
  });

  /** The owner's bakes are theirs: a dealer who manages the car deletes only the bakes they made. */
  app.delete("/baked-tune-files/:id", { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await bakedRow((request.params as { id: string }).id);
    const { owner } = await vehicleFor(db, row.vehicleId, caller).catch(() => {
      throw notFound(`Baked tune file ${row.id}`);
    });
    if (!owner && !isAdmin(caller) && row.createdBy !== caller.uid) throw forbidden("Only the vehicle's owner, an admin or whoever made the bake may delete it");
    await db.delete(bakedTuneFiles).where(eq(bakedTuneFiles.id, row.id));
    return reply.status(204).send();
  });

  /** Redoes every kept bake from its sources (after a patch or definition change); one failure is recorded and the rest go on. */
  app.post("/baked-tune-files/rebake-all", { config: admin }, async (_request, reply) => {
    const job = ctx.jobs.start("rebake-all", async (progress) => {
      const rows = await db.select().from(bakedTuneFiles).where(or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))).orderBy(bakedTuneFiles.createdAt);
      progress.setTotal(rows.length);
      for (const row of rows) {
        try {
          const [vehicle] = await db.select().from(userVehicles).where(eq(userVehicles.id, row.vehicleId));
          const dump = dumpOf(vehicle);
          const record = await dump.record;
          let tuneSha256 = row.sourceSha256;
          if (row.tuneFileId) tuneSha256 = (await versionRow(row.tuneFileId, row.tuneVersion!)).sha256;
          if (!tuneSha256) throw new Error("the bake has neither a tune nor a supplied image");
          const patches = await patchesById(db, row.patchIds);
          const result = await bakeFromBlobs(ctx, { record, dumpSha256: dump.sha256, tune: tuneSha256, direct: !row.tuneFileId, patches });
          await ctx.blobs.put(result.image);
          await db
            .update(bakedTuneFiles)
            .set({ sha256: result.sha256, size: result.image.length, report: result.report as unknown as Record<string, unknown>, updatedAt: new Date() })
            .where(eq(bakedTuneFiles.id, row.id));
          progress.step();
        } catch (error) {
          const message = error instanceof HttpError ? (error.description ?? error.message) : error instanceof Error ? error.message : String(error);
          progress.step({ item: row.id, message });
        }
      }
    });
    return reply.status(202).send({ job });
  });
}
