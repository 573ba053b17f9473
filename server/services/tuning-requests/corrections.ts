/**
 * Corrections from logs as a revision: the dealer reads the maps of the tune the next revision
 * starts from (the last revision, or the stock read before the first), and the cells they accepted
 * are written into a copy of it and delivered through the one revision path (`deliverRevision`,
 * or `checkRevision` for a dry run): the car's firmware, checksums fixed, the map-level changes
 * against stock and the previous revision. The reasons become the revision's note, so the
 * customer reads on the ticket what changed and why.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TuneDefinition, TuneItem } from "../../../contracts/tune-definition";
import type { Correction, RequestMaps } from "../../../contracts/tuning-request-corrections";
import type { RevisionCheck, TuningRequest } from "../../../contracts/tuning-requests";
import { readItem, TuneError, writeCell } from "../../../domain/tune";
import type { AppContext } from "../../context";
import { forbidden, invalidFields, Refusal } from "../errors";
import { definitionOf } from "../firmware-support/reads";
import { sha256Hex } from "../hashing";
import type { VerifiedCaller } from "../identity";
import { tempDirOf } from "../temp-files";
import { readImage } from "../tune-files";
import type { UploadedFile } from "../uploaded-file";
import { checkRevision, deliverableRequest, deliverRevision, lastRevisionOf } from "./revisions";
import { type RequestRow, requestFor } from "./sides";
import type { RequestOrigin } from "./trail";

const isMap = (item: TuneItem) => item.kind === "table1d" || item.kind === "table2d";

/** Only the dealer's side (the request's dealer, or an admin working it) changes its tune. */
function mustBeDealer(side: { party: string }) {
  if (side.party !== "dealer") throw forbidden("only the request's dealer corrects its tune");
}

/** The image the next revision starts from, and its revision number (0 for the stock read). */
async function baseOf(ctx: AppContext, row: RequestRow): Promise<{ revision: number; image: Uint8Array }> {
  const last = await lastRevisionOf(ctx.db, row);
  return { revision: row.revisions, image: await readImage(ctx, last ? last.sha256 : row.stockSha256) };
}

async function definitionFor(ctx: AppContext, row: RequestRow): Promise<TuneDefinition> {
  const definition = await definitionOf(ctx.db, row.firmwareId);
  if (!definition)
    throw new Refusal("unprocessable", "No definition", `firmware ${row.firmwareId} has no definition of its maps`);
  return definition;
}

/** The tables of the tune the next revision starts from, read in physical units. */
export async function requestMaps(ctx: AppContext, caller: VerifiedCaller, id: string): Promise<RequestMaps> {
  const { row, side } = await requestFor(ctx.db, caller, id);
  mustBeDealer(side);
  const definition = await definitionFor(ctx, row);
  const { revision, image } = await baseOf(ctx, row);
  const maps = definition.items.filter(isMap).map((item) => ({
    title: item.title,
    category: item.category ?? null,
    values: readItem(image, item),
  }));
  return { revision, maps };
}

/** The base image with the cells written, each refusal naming its cell in the body. */
function corrected(image: Uint8Array, definition: TuneDefinition, body: Correction): Uint8Array {
  const item = definition.items.find((entry) => entry.id === body.itemId);
  if (!item || !isMap(item))
    throw invalidFields("body", [{ path: "itemId", message: `${body.itemId} is not a map of this firmware` }]);
  const copy = new Uint8Array(image);
  body.cells.forEach(({ row, col, value }, k) => {
    try {
      writeCell(copy, item, row, col, value);
    } catch (error) {
      if (error instanceof TuneError) throw invalidFields("body", [{ path: `cells.${k}`, message: error.message }]);
      throw error;
    }
  });
  return copy;
}

/** The revision's note: the dealer's words, then one line per reason. */
export function correctionNote(note: string, reasons: readonly string[]): string {
  const why = reasons.map((reason) => `- ${reason}`).join("\n");
  if (!why) return note;
  return [note, `What changed and why:\n${why}`].filter(Boolean).join("\n\n");
}

/** Bytes handed to the revision path as the upload it takes, removed once it is done. */
async function asUpload<T>(ctx: AppContext, bytes: Uint8Array, use: (file: UploadedFile) => Promise<T>): Promise<T> {
  const dir = tempDirOf(ctx.config.dataDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `correction-${randomBytes(12).toString("hex")}`);
  await writeFile(file, bytes);
  try {
    return await use({
      field: "file",
      filename: "",
      mimetype: "application/octet-stream",
      path: file,
      size: bytes.length,
      sha256: sha256Hex(bytes),
    });
  } finally {
    await rm(file, { force: true });
  }
}

/** Writes the accepted cells into the next revision and delivers it; with `dryRun` the check alone. */
export async function deliverCorrection(
  ctx: AppContext,
  caller: VerifiedCaller,
  id: string,
  body: Correction,
  origin: RequestOrigin,
): Promise<{ dryRun: true; check: RevisionCheck } | { dryRun: false; ticket: TuningRequest }> {
  mustBeDealer((await requestFor(ctx.db, caller, id)).side);
  const target = await deliverableRequest(ctx, caller, id);
  const definition = await definitionFor(ctx, target.row);
  const bytes = corrected((await baseOf(ctx, target.row)).image, definition, body);
  return asUpload(ctx, bytes, async (file) => {
    if (body.dryRun) return { dryRun: true, check: await checkRevision(ctx, target, { file, fixChecksums: true }) };
    const note = correctionNote(body.note, body.reasons);
    const ticket = await deliverRevision(ctx, caller, target, { file, note, fixChecksums: true }, origin);
    return { dryRun: false, ticket };
  });
}
