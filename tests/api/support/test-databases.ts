/**
 * The databases the API suites run on. Each test app gets a fresh database of its own, made from one
 * migrated once per run by the suites' global setup (tests/api/support/global-setup.ts): a PostgreSQL
 * template, copied by CREATE DATABASE … TEMPLATE, and a dump of a PGlite data directory, loaded by
 * the new PGlite. Initialising and migrating anew cost each test app about two seconds on PGlite
 * and half a second on PostgreSQL; the migrations themselves still run from nothing once per run
 * here, and again on every app (with nothing left to do).
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import pg from "pg";
import { openDatabase } from "../../../server/db/connection";

/** The PostgreSQL server every machine has; each suite gets its own database on it. */
export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databaseUrl = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A new PostgreSQL database copied from `template` (already migrated), and how to drop it. */
export async function createPostgresDatabase(template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  await asAdmin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: databaseUrl(name),
    drop: () => asAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Made once per run: a migrated PostgreSQL database to copy and a migrated PGlite data directory written to `pgliteDumpFile`. */
export async function prepareMigratedDatabases(
  pgliteDumpFile: string,
): Promise<{ postgresTemplate: string; drop: () => Promise<void> }> {
  const postgresTemplate = `portal_template_${randomBytes(6).toString("hex")}`;
  await asAdmin((client) => client.query(`CREATE DATABASE ${postgresTemplate}`));
  const postgres = await openDatabase({ databaseUrl: databaseUrl(postgresTemplate), pgliteDir: "memory://" });
  try {
    await postgres.migrate();
  } finally {
    // A template cannot be copied while anyone is connected to it.
    await postgres.close();
  }
  const pglite = await openDatabase({ pgliteDir: "memory://" });
  try {
    await pglite.migrate();
    await writeFile(pgliteDumpFile, Buffer.from(await (await pglite.pglite!.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  return {
    postgresTemplate,
    drop: () =>
      asAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

let pgliteDump: Promise<Blob> | undefined;
/** The migrated PGlite data directory, read once per test file. */
export function migratedPgliteDataDir(file: string): Promise<Blob> {
  pgliteDump ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteDump;
}
