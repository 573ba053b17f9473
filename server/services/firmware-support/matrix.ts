/** The support matrix: one row per firmware record with what it has (definition, files, flashing, catalogue rows). */
import { sql } from "drizzle-orm";
import type { FirmwareMatrixRow } from "../../../contracts/firmware-support";
import type { Db } from "../../db/handle";
import { firmwareSupport, obdFunctions, pidTemplates, supportedVehicles } from "../../db/schema";
import type { PageParts } from "../list-pages";

/** How many rows of a catalogue table name the firmware. */
const count = (table: typeof supportedVehicles | typeof pidTemplates | typeof obdFunctions) =>
  sql<number>`(SELECT count(*)::int FROM ${table} WHERE ${table.firmwareIds} @> ARRAY[${firmwareSupport.firmwareId}])`;

/** One page of the matrix. */
export async function firmwareMatrixPage(
  db: Db,
  { where, orderBy, limit, offset }: PageParts,
): Promise<FirmwareMatrixRow[]> {
  const rows = await db
    .select({
      firmwareId: firmwareSupport.firmwareId,
      manufacturer: firmwareSupport.manufacturer,
      ecuFamily: firmwareSupport.ecuFamily,
      definition: sql<boolean>`${firmwareSupport.definition} IS NOT NULL AND ${firmwareSupport.definition} <> 'null'::jsonb`,
      stockFile: sql<boolean>`${firmwareSupport.stockSha256} IS NOT NULL`,
      bootloader: sql<boolean>`${firmwareSupport.bootloaderSha256} IS NOT NULL`,
      flashing: firmwareSupport.flashingEnabled,
      vehicles: count(supportedVehicles),
      pidTemplates: count(pidTemplates),
      obdFunctions: count(obdFunctions),
    })
    .from(firmwareSupport)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
  return rows as FirmwareMatrixRow[];
}
