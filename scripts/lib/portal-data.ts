/** What the backup and restore commands work on, opened from the configuration the server reads. */
import path from "node:path";
import { loadConfig } from "../../server/config";
import { type Database, openDatabase } from "../../server/db/connection";
import { openBlobStores } from "../../server/services/blob-stores";
import { SecretBox } from "../../server/services/secret-box";

/** The database (unless a restore is about to make it), both blob stores and the secrets key if there is one. */
export async function openPortalData(options: { withoutDatabase?: boolean } = {}) {
  const config = loadConfig();
  const pgliteDir = path.join(config.dataDir, "pglite");
  const database: Database | null = options.withoutDatabase
    ? null
    : await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
  const stores = openBlobStores(config);
  const secrets = await SecretBox.existing({ keyBase64: config.secretsKey, dataDir: config.dataDir });
  return {
    config,
    pgliteDir,
    database,
    stores: { blobs: stores.blobs, dataLogBlobs: stores.dataLogBlobs },
    secrets,
    async close() {
      await database?.close();
      stores.close();
    },
  };
}
