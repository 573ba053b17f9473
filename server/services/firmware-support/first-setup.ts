/**
 * A new record's first setup from its stock read: identify candidates found in the image and the
 * catalogue's known checksum schemes (those of the records with images of the same size) tried on it.
 */
import { and, eq, ne } from "drizzle-orm";
import type { FirmwareFirstSetup } from "../../../contracts/firmware-support";
import type { ChecksumScheme } from "../../../contracts/tune-definition";
import { findIdentifyCandidates, trySchemes } from "../../../domain/tune/first-setup";
import type { AppContext } from "../../context";
import { firmwareSupport } from "../../db/schema";
import { notFound } from "../errors";
import { firmwareRowOf } from "./records";

/** Schemes with the same type, ranges and store are one scheme, whatever each record calls it. */
const schemeKey = (s: ChecksumScheme) => JSON.stringify([s.type, s.ranges, s.store.address, s.store.endian]);

export async function firstSetupOf(ctx: AppContext, id: string): Promise<FirmwareFirstSetup> {
  const row = await firmwareRowOf(ctx.db, id);
  if (!row.stockSha256) throw notFound(`A stock file for ${row.firmwareId}`);
  const image = new Uint8Array(await ctx.blobs.read(row.stockSha256));
  const others = await ctx.db
    .select({ firmwareId: firmwareSupport.firmwareId, checksums: firmwareSupport.checksums })
    .from(firmwareSupport)
    .where(and(eq(firmwareSupport.imageSize, row.imageSize), ne(firmwareSupport.id, id)));
  const known = new Map<string, { scheme: ChecksumScheme; from: string[] }>();
  for (const record of [{ firmwareId: row.firmwareId, checksums: row.checksums }, ...others]) {
    for (const scheme of record.checksums as ChecksumScheme[]) {
      const key = schemeKey(scheme);
      const entry = known.get(key) ?? { scheme, from: [] };
      entry.from.push(record.firmwareId);
      known.set(key, entry);
    }
  }
  const entries = [...known.values()];
  const trials = trySchemes(
    image,
    entries.map((entry) => entry.scheme),
  );
  return {
    candidates: findIdentifyCandidates(image),
    schemes: trials.map((trial, i) => ({ ...trial, from: entries[i].from })),
  };
}
