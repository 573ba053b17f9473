import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { retryReadsOnConnectionLoss } from "./connection-loss";
import type { Db } from "./handle";
import { lockPgliteFolder } from "./pglite-lock";
import * as schema from "./schema";
import { guardTransactions } from "./transaction-guard";

export type { Db, Tx } from "./handle";

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  /** true when a trivial query answers. */
  ping(): Promise<boolean>;
  /**
   * Embedded only: calls `onNotify` for each NOTIFY on the channel. Every
   * session is this process's, and a notification is handled before the
   * next query runs, so nothing can read between a commit and its callback.
   */
  listen?(channel: string, onNotify: () => void): Promise<void>;
  /** Embedded only: the PGlite client itself, for the job queue's own SQL (server/services/queue.ts). */
  pglite?: PGlite;
  /** PostgreSQL only: the connection string, for a client with its own pool (the job queue's). */
  url?: string;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite files go here; "memory://" keeps them in memory (tests). */
  pgliteDir: string;
  /**
   * PGlite only: a dump of a data directory (`dumpDataDir`) to start from instead of an empty one.
   * The API tests start each app from one already migrated: initialising and migrating PGlite anew
   * cost each test app about two seconds.
   */
  pgliteDataDir?: Blob;
  onPoolError?: (error: Error) => void;
  /** Longest a transaction may stay open before it is rolled back (the request time-out); default 2 minutes. */
  transactionTimeoutMs?: number;
}

const DEFAULT_TRANSACTION_TIMEOUT_MS = 120_000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const transactionTimeoutMs = options.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS;
  if (options.databaseUrl) return openPostgres(options.databaseUrl, transactionTimeoutMs, options.onPoolError);
  return openPglite(options.pgliteDir, transactionTimeoutMs, options.pgliteDataDir);
}

async function openPglite(dir: string, transactionTimeoutMs: number, dataDir?: Blob): Promise<Database> {
  const inMemory = dir.startsWith("memory://");
  if (!inMemory) mkdirSync(dir, { recursive: true });
  const release = inMemory ? () => {} : lockPgliteFolder(dir);
  // pg_trgm backs the trigram indexes of list search; the migration creates the extension.
  const client = new PGlite(dir, { extensions: { pg_trgm }, ...(dataDir && { loadDataDir: dataDir }) });
  await client.waitReady;
  const db = guardTransactions(drizzlePglite({ client, schema }) as unknown as Db, { timeoutMs: transactionTimeoutMs });
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    ping: () => ping(db),
    listen: async (channel, onNotify) => void (await client.listen(channel, onNotify)),
    pglite: client,
    close: async () => {
      await client.close();
      release();
    },
  };
}

async function openPostgres(
  url: string,
  transactionTimeoutMs: number,
  onPoolError?: (error: Error) => void,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    // A session left idle inside a transaction past our own deadline (a process that died
    // between two statements) is ended by the server, so its locks cannot outlive it.
    idle_in_transaction_session_timeout: transactionTimeoutMs + 5_000,
  });
  // Without a listener, PostgreSQL dropping an idle connection (restart, terminate) kills the process.
  pool.on("error", (error) => onPoolError?.(error));
  retryReadsOnConnectionLoss(pool);
  const db = guardTransactions(drizzlePg({ client: pool, schema }) as unknown as Db, {
    timeoutMs: transactionTimeoutMs,
  });
  return {
    db,
    kind: "postgres",
    url,
    migrate: () => migrateUnderLock(pool),
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

/**
 * Every instance migrates as it starts, and several may start at once against one database: each
 * would read the same applied list and run the same pending migrations, and all but one would
 * fail. The migrations run on one session holding a PostgreSQL advisory lock, so the instances
 * take turns, and those after the first find nothing left to apply. The lock is the session's:
 * a process that dies holding it releases it with its connection.
 */
async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('portal migrations'))");
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('portal migrations'))");
    }
  } finally {
    client.release();
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
