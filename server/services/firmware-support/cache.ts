/**
 * Firmware identities and patches as last read, for the requests tools make
 * again and again on images (inspect, apply patches): on PGlite the two
 * queries cost more than verifying every checksum of an 8 MiB image. What
 * is kept is dropped when the catalogue changes: triggers bump
 * catalogue_generation at the commit of any write to firmware_support or
 * tune_file_patches, whoever writes (another instance, a script, psql), so
 * one read of one row tells whether the kept copies are still what is stored.
 * The embedded database has no other writer and tells its listeners before
 * its next query: there the trigger's NOTIFY drops them, and no read is asked.
 */
import { eq } from "drizzle-orm";
import type { Patch } from "../../../contracts/tune-definition";
import type { Database, Db } from "../../db/connection";
import { catalogueGeneration, firmwareSupport } from "../../db/schema";
import { type FirmwareIdentity, type Identification, identifyAmong, identityColumns, patchesById } from "./reads";

interface Kept {
  generation: number;
  identities: Map<number, Promise<FirmwareIdentity[]>>;
  patches: Map<string, Patch>;
}

export class CatalogueCache {
  private kept: Kept = { generation: -1, identities: new Map(), patches: new Map() };
  /** Set on the embedded database: NOTIFY says when to drop what is kept. */
  private told = false;
  private readonly db: Db;

  private constructor(database: Database) {
    this.db = database.db;
  }

  static async open(database: Database): Promise<CatalogueCache> {
    const cache = new CatalogueCache(database);
    if (database.listen) {
      await database.listen("catalogue_generation", () => cache.drop(cache.kept.generation + 1));
      cache.told = true;
    }
    return cache;
  }

  private drop(generation: number): void {
    this.kept = { generation, identities: new Map(), patches: new Map() };
  }

  /**
   * What is kept for the current generation. Loads write into the object they
   * started from: one that finished after a newer generation was seen lands in
   * a discarded object, never beside the newer copies. A load labelled with the
   * generation read before it can only be newer than its label, never older.
   */
  private async current(): Promise<Kept> {
    if (this.told) return this.kept;
    const [row] = await this.db
      .select({ generation: catalogueGeneration.generation })
      .from(catalogueGeneration)
      .where(eq(catalogueGeneration.id, 1));
    const generation = row?.generation ?? -1;
    if (generation !== this.kept.generation) this.drop(generation);
    return this.kept;
  }

  /** The firmware record whose size and identify rules match the image, or the reason none does (identifyAmong). */
  async identify(image: Uint8Array): Promise<Identification> {
    const kept = await this.current();
    let candidates = kept.identities.get(image.length);
    if (!candidates) {
      // then() makes it a promise: a query builder held as one would run again at every await.
      candidates = this.db
        .select(identityColumns)
        .from(firmwareSupport)
        .where(eq(firmwareSupport.imageSize, image.length))
        .then((rows) => rows as FirmwareIdentity[]);
      kept.identities.set(image.length, candidates);
      candidates.catch(() => kept.identities.delete(image.length));
    }
    return identifyAmong(this.db, image, await candidates);
  }

  /** Patches by id, in the order asked, or 400 naming the unknown ones (patchesById). */
  async patches(ids: readonly string[], path = "patchIds"): Promise<Patch[]> {
    const kept = await this.current();
    const missing = [...new Set(ids.filter((id) => !kept.patches.has(id)))];
    if (missing.length)
      for (const patch of await patchesById(this.db, missing, path)) kept.patches.set(patch.id!, patch);
    return ids.map((id) => kept.patches.get(id)!);
  }
}
