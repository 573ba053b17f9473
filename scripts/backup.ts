/**
 * Backs the portal up: `npm run backup -- [folder]` (default `backups/<date and time>`), with the
 * configuration `npm start` reads (DATABASE_URL or PGlite under DATA_DIR, S3_* or the disk). On
 * PGlite the portal must be stopped first: its database is one process's. The secrets key is not
 * in the backup: keep it apart (docs/develop/operations.md, "Backups").
 */
import path from "node:path";
import { backUp } from "../server/services/backups";
import { runMain } from "./lib/banner";
import { openPortalData } from "./lib/portal-data";

runMain(async () => {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const dir = path.resolve(process.argv[2] ?? path.join("backups", stamp));
  const data = await openPortalData();
  try {
    if (!data.secrets) throw new Error("There is no secrets key to name in the backup: has this portal ever started?");
    const manifest = await backUp(data.database!, data.stores, data.secrets, dir);
    const bytes = manifest.files.reduce((total, file) => total + file.size, manifest.database.size);
    console.log(
      `Backed up the ${manifest.database.kind} database and ${manifest.files.length} files (${(bytes / 1048576).toFixed(1)} MiB) to ${dir}`,
    );
    console.log(`Keep the secrets key apart from it; its fingerprint is ${manifest.secretsKey.fingerprint}.`);
  } finally {
    await data.close();
  }
});
