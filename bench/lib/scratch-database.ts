import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../../server/db/connection";

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A new database for one bench run (PGlite in memory, or a scratch PostgreSQL database), and how to drop it. */
export async function openScratchDatabase(
  kind: "pglite" | "postgres",
  prefix: string,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === "pglite") {
    const database = await openDatabase({ pgliteDir: "memory://" });
    return { database, drop: async () => undefined };
  }
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
