/**
 * What the tune viewer reads of a tune file: its inspection, its maps and
 * their values against a base (stock or another tune), and the stock bytes
 * it differs from for the hex diff. No tune bytes leave the server here
 * beyond what the caller may download.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  type Inspection,
  inspectionSchema,
  type StockDifferences,
  stockDifferencesSchema,
  type TuneItemValues,
  type TuneMaps,
  type TuneMapsBase,
  tuneItemValuesSchema,
  tuneMapsQuerySchema,
  tuneVersionQuerySchema,
} from "../../contracts/tune-files";
import { changedItemIds, changedRanges, readItem } from "../../domain/tune";
import { checkedTuneMapsSchema } from "../../domain/tune/checked-schemas";
import type { AppContext } from "../context";
import { badRequest, forbidden, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import type { ZodTypeProvider } from "../http/zod";
import { definitionItem, definitionOf, firmwareIdentity, firmwareRecord } from "../services/firmware-support/reads";
import type { VerifiedCaller } from "../services/identity";
import { versionRow, visibleTune } from "../services/tune-access";
import { inspect, readImage, readImageShared } from "../services/tune-files";

const itemParams = z.strictObject({ id: idParams.shape.id, itemId: z.string().min(1).max(200) });

/**
 * What the viewer reads: the tune's image (the current version, or another
 * for owners) and its base, the stock file or another tune of the same
 * firmware that the caller may view as well; view is checked on both.
 */
async function viewedImages(
  { db }: AppContext,
  id: string,
  query: z.output<typeof tuneMapsQuerySchema>,
  caller: VerifiedCaller,
) {
  const { row, access } = await visibleTune(db, id, caller);
  if (!access.view)
    throw forbidden(access.bought ? "The tune's author lets buyers flash it, not view its maps" : "Buy the tune first");
  if (query.version !== undefined && query.version !== row.currentVersion && !access.owner)
    throw forbidden("Buyers get the current version only");
  const stored = await versionRow(db, row.id, query.version ?? row.currentVersion);
  const record = await firmwareIdentity(db, row.firmwareId);
  let base: { info: TuneMapsBase; sha256: string } | null = null;
  if (query.against !== undefined) {
    const other = await visibleTune(db, query.against, caller);
    if (!other.access.view)
      throw forbidden(
        `The author of "${other.row.title}" does not let you view its maps, so it cannot be compared with`,
      );
    if (other.row.firmwareId !== row.firmwareId) {
      const message = `"${other.row.title}" is for firmware ${other.row.firmwareId}, not ${row.firmwareId}`;
      throw badRequest("Invalid query", message, [{ path: "against", message }]);
    }
    const otherVersion = await versionRow(db, other.row.id, other.row.currentVersion);
    base = { info: { kind: "tune", tuneFileId: other.row.id, title: other.row.title }, sha256: otherVersion.sha256 };
  } else if (record.stockSha256) base = { info: { kind: "stock" }, sha256: record.stockSha256 };
  return { row, stored, base };
}

export async function tuneViewerRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** The current version's inspection, within protection (changes only with view). */
  app.get(
    `/${apiRoutes.tuneFiles.inspection(":id")}`,
    { schema: { params: idParams, querystring: tuneVersionQuerySchema, response: { 200: inspectionSchema } } },
    async (request): Promise<Inspection> => {
      const { row, access } = await visibleTune(db, request.params.id, callerOf(request));
      if (!access.owner && !access.bought) throw forbidden("Buy the tune first to inspect it");
      const { version } = request.query;
      if (version !== undefined && version !== row.currentVersion && !access.owner)
        throw forbidden("Buyers get the current version only");
      const stored = await versionRow(db, row.id, version ?? row.currentVersion);
      return inspect(ctx, await readImage(ctx, stored.sha256), {
        record: await firmwareRecord(db, row.firmwareId),
        view: access.view,
      });
    },
  );

  /** The definition and the items changed from the base; values come per item. No bytes leave the server. */
  app.get(
    `/${apiRoutes.tuneFiles.maps(":id")}`,
    { schema: { params: idParams, querystring: tuneMapsQuerySchema, response: { 200: checkedTuneMapsSchema } } },
    async (request): Promise<TuneMaps> => {
      const { row, stored, base } = await viewedImages(ctx, request.params.id, request.query, callerOf(request));
      const definition = await definitionOf(db, row.firmwareId);
      const changed =
        definition && base
          ? changedItemIds(
              await readImageShared(ctx, base.sha256),
              await readImageShared(ctx, stored.sha256),
              definition,
            )
          : [];
      return { firmwareId: row.firmwareId, version: stored.number, definition, base: base?.info ?? null, changed };
    },
  );

  /** One item's values and its base's, in physical units. */
  app.get(
    `/${apiRoutes.tuneFiles.mapItem(":id", ":itemId")}`,
    { schema: { params: itemParams, querystring: tuneMapsQuerySchema, response: { 200: tuneItemValuesSchema } } },
    async (request): Promise<TuneItemValues> => {
      const { id, itemId } = request.params;
      const { row, stored, base } = await viewedImages(ctx, id, request.query, callerOf(request));
      const item = await definitionItem(db, row.firmwareId, itemId);
      if (!item) throw notFound(`Map ${itemId} in the definition of firmware ${row.firmwareId}`);
      return {
        values: readItem(await readImageShared(ctx, stored.sha256), item),
        base: base ? readItem(await readImageShared(ctx, base.sha256), item) : null,
      };
    },
  );

  /**
   * The stock file's bytes where this tune's differ, for a hex diff against
   * stock: laid over the tune's own bytes they make the stock image, while
   * giving away no stock byte that the tune does not change (the stock file
   * itself is for admins only). For whoever may download the tune.
   */
  app.get(
    `/${apiRoutes.tuneFiles.stockDifferences(":id")}`,
    { schema: { params: idParams, querystring: tuneVersionQuerySchema, response: { 200: stockDifferencesSchema } } },
    async (request): Promise<StockDifferences> => {
      const { row, access } = await visibleTune(db, request.params.id, callerOf(request));
      if (!access.download)
        throw forbidden(
          access.bought
            ? "The tune's author does not let buyers download it, so its bytes cannot be compared"
            : "Buy the tune first",
        );
      const { version } = request.query;
      if (version !== undefined && version !== row.currentVersion && !access.owner)
        throw forbidden("Buyers get the current version only");
      const stored = await versionRow(db, row.id, version ?? row.currentVersion);
      const { stockSha256 } = await firmwareIdentity(db, row.firmwareId);
      if (!stockSha256) throw notFound(`A stock file of firmware ${row.firmwareId}`);
      const [stock, tune] = await Promise.all([readImageShared(ctx, stockSha256), readImageShared(ctx, stored.sha256)]);
      const regions = changedRanges(stock, tune, 0).map(({ start, end }) => ({
        start,
        bytes: Buffer.from(stock.buffer, stock.byteOffset + start, end - start + 1).toString("base64"),
      }));
      return { size: stock.length, regions };
    },
  );
}
