/**
 * Restores a backup of `npm run backup` into the portal the configuration names: `npm run restore
 * -- <folder>`. The database must be empty (PostgreSQL: a database without tables; PGlite: no
 * database folder under DATA_DIR yet) and the secrets key of the backed-up portal in place.
 */
import path from "node:path";
import { restore } from "../server/services/backups";
import { runMain } from "./lib/banner";
import { openPortalData } from "./lib/portal-data";

runMain(async () => {
  const from = process.argv[2];
  if (!from) throw new Error("Usage: npm run restore -- <backup folder>");
  const data = await openPortalData({ withoutDatabase: true });
  try {
    const target = data.config.databaseUrl
      ? ({ kind: "postgres", url: data.config.databaseUrl } as const)
      : ({ kind: "pglite", dir: data.pgliteDir } as const);
    const manifest = await restore(path.resolve(from), target, data.stores, data.secrets, data.config.dataDir);
    console.log(
      `Restored the ${manifest.database.kind} database and ${manifest.files.length} files of ${manifest.createdAt}`,
    );
  } finally {
    await data.close();
  }
});
