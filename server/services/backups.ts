/**
 * Backups of a whole portal, either database and either storage: the database as one consistent
 * dump (PostgreSQL: `pg_dump` of a snapshot held open for the whole backup; PGlite: its data
 * directory, which only this process uses) and every file a row of that dump refers to, each
 * checked against its SHA-256 on the way, listed in a manifest with the dump's own hash.
 *
 * A restore checks the whole backup against its manifest first and refuses a target that already
 * holds a portal, so a damaged backup or a wrong target never half-overwrites anything.
 *
 * Folder: `manifest.json`, `database.dump` (PostgreSQL, pg_dump's custom format) or
 * `database.tar.gz` (PGlite), and `files/<store>/ab/<sha256>`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Database, Db } from "../db/connection";
import { referencedBy, STORE_HOLDERS } from "./blob-collector";
import { type BlobStore, shardedName } from "./blob-store";
import { hashingTap } from "./hashing";
import type { SecretBox } from "./secret-box";

export type StoreName = keyof typeof STORE_HOLDERS;

export interface BackupManifest {
  format: "tuning-portal-backup/1";
  createdAt: string;
  database: { kind: Database["kind"]; file: string; sha256: string; size: number };
  /**
   * Which secrets key sealed the stored secrets (a signature made with it, never the key): the
   * backup leaves the key out, and a restore needs the same one in place.
   */
  secretsKey: { fingerprint: string };
  files: Array<{ store: StoreName; sha256: string; size: number }>;
}

export type Stores = Record<StoreName, BlobStore>;

const MANIFEST = "manifest.json";
const STORES = Object.keys(STORE_HOLDERS) as StoreName[];

/** A backup or a restore that cannot go on, with the sentence saying why. */
export class BackupRefusal extends Error {}

/** Writes a stream to `file` and answers the SHA-256 and size of what went through. */
async function writeHashed(source: NodeJS.ReadableStream, file: string): Promise<{ sha256: string; size: number }> {
  const { tap, result } = hashingTap();
  await mkdir(path.dirname(file), { recursive: true });
  await pipeline(source, tap, createWriteStream(file));
  return result();
}

async function hashOf(file: string): Promise<{ sha256: string; size: number }> {
  const { tap, result } = hashingTap();
  await pipeline(createReadStream(file), tap, new Writable({ write: (_chunk, _encoding, done) => done() }));
  return result();
}

/** Runs a PostgreSQL client program, refusing with its own words when it fails. */
function runTool(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupRefusal(
          error.code === "ENOENT"
            ? `${program} is not installed: install Debian's postgresql-client package`
            : `${program} could not start: ${error.message}`,
        ),
      ),
    );
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new BackupRefusal(`${program} failed: ${stderr.trim() || `exit ${code}`}`)),
    );
  });
}

/** Copies every file the rows refer to, checking each against its name. */
async function copyFiles(db: Db, stores: Stores, dir: string): Promise<BackupManifest["files"]> {
  const files: BackupManifest["files"] = [];
  for (const store of STORES) {
    const referenced = [...(await referencedBy(db, [...STORE_HOLDERS[store]]))].sort();
    for (const sha256 of referenced) {
      if (!(await stores[store].exists(sha256)))
        throw new BackupRefusal(`The file ${sha256} a record of ${store} refers to is missing from the storage`);
      const copied = await writeHashed(
        await stores[store].stream(sha256),
        path.join(dir, "files", store, shardedName(sha256)),
      );
      if (copied.sha256 !== sha256)
        throw new BackupRefusal(`The stored file ${sha256} (${store}) does not match its SHA-256: it is damaged`);
      files.push({ store, sha256, size: copied.size });
    }
  }
  return files;
}

/**
 * Dumps PostgreSQL from a snapshot exported by a transaction that stays open while pg_dump runs
 * and the files are listed, so the files copied are exactly those the dump's rows refer to.
 */
async function backupPostgres(url: string, stores: Stores, dir: string) {
  const client = new pg.Client({ connectionString: url, application_name: "portal backup" });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id");
    const file = path.join(dir, "database.dump");
    await runTool("pg_dump", [
      "--format=custom",
      "--no-owner",
      "--no-privileges",
      `--snapshot=${rows[0].id}`,
      `--file=${file}`,
      `--dbname=${url}`,
    ]);
    const files = await copyFiles(drizzle({ client }) as unknown as Db, stores, dir);
    await client.query("COMMIT");
    return { file, files };
  } finally {
    await client.end();
  }
}

/** PGlite is one process's database: its data directory, dumped between two statements, is consistent. */
async function backupPglite(database: Database, stores: Stores, dir: string) {
  if (!database.pglite) throw new BackupRefusal("This database is not PGlite");
  const file = path.join(dir, "database.tar.gz");
  const dump = await database.pglite.dumpDataDir("gzip");
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  return { file, files: await copyFiles(database.db, stores, dir) };
}

/** Backs the portal up into `dir`, which must not hold a backup yet; answers the manifest written. */
export async function backUp(
  database: Database,
  stores: Stores,
  secrets: SecretBox,
  dir: string,
  now: () => Date = () => new Date(),
): Promise<BackupManifest> {
  if (await stat(path.join(dir, MANIFEST)).catch(() => null))
    throw new BackupRefusal(`${dir} already holds a backup: choose another folder`);
  await mkdir(dir, { recursive: true });
  const { file, files } =
    database.kind === "postgres"
      ? await backupPostgres(database.url!, stores, dir)
      : await backupPglite(database, stores, dir);
  const manifest: BackupManifest = {
    format: "tuning-portal-backup/1",
    createdAt: now().toISOString(),
    database: { kind: database.kind, file: path.basename(file), ...(await hashOf(file)) },
    secretsKey: { fingerprint: keyFingerprint(secrets) },
    files,
  };
  // Written last: a folder without a manifest is a backup that did not finish.
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The backup's manifest, once the dump and every file are checked against it. */
export async function checkBackup(dir: string): Promise<BackupManifest> {
  const text = await readFile(path.join(dir, MANIFEST), "utf8").catch(() => {
    throw new BackupRefusal(`${dir} holds no ${MANIFEST}: it is not a backup, or one that did not finish`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== "tuning-portal-backup/1")
    throw new BackupRefusal(`${dir}/${MANIFEST} is not a backup of this portal`);
  const expected = [
    { file: manifest.database.file, sha256: manifest.database.sha256, size: manifest.database.size },
    ...manifest.files.map((entry) => ({ ...entry, file: path.join("files", entry.store, shardedName(entry.sha256)) })),
  ];
  for (const entry of expected) {
    const found = await hashOf(path.join(dir, entry.file)).catch(() => null);
    if (!found) throw new BackupRefusal(`The backup's ${entry.file} is missing`);
    if (found.sha256 !== entry.sha256 || found.size !== entry.size)
      throw new BackupRefusal(`The backup's ${entry.file} does not match its SHA-256 in the manifest: it is damaged`);
  }
  return manifest;
}

export type RestoreTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dir: string };

/** Names the key without giving it away: a signature of a fixed text under a key derived from it. */
export const keyFingerprint = (secrets: SecretBox) => secrets.sign("backup-fingerprint", "tuning-portal").slice(0, 16);

/** PostgreSQL: into a database that holds no tables, so nothing of another portal is overwritten. */
async function restorePostgres(url: string, dump: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    if (rows[0].n > 0)
      throw new BackupRefusal(`The database already holds ${rows[0].n} tables: restore into an empty database`);
  } finally {
    await client.end();
  }
  await runTool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--dbname=${url}`,
    dump,
  ]);
}

/** PGlite: into a data directory that does not exist yet. */
async function restorePglite(dir: string, dump: string) {
  if (await stat(dir).catch(() => null))
    throw new BackupRefusal(`${dir} already exists: restore into a data folder without a database`);
  await mkdir(dir, { recursive: true });
  const client = new PGlite(dir, {
    extensions: { pg_trgm },
    loadDataDir: new Blob([new Uint8Array(await readFile(dump))]),
  });
  await client.waitReady;
  await client.close();
}

/**
 * Restores a checked backup: the database into `target`, of the backup's kind, and every file
 * into `stores`, each through a temp file under `dataDir` (on the disk store's file system, so it
 * is moved into place whole).
 */
export async function restore(
  dir: string,
  target: RestoreTarget,
  stores: Stores,
  secrets: SecretBox | null,
  dataDir: string,
) {
  const manifest = await checkBackup(dir);
  if (!secrets || keyFingerprint(secrets) !== manifest.secretsKey.fingerprint)
    throw new BackupRefusal(
      `${secrets ? "The secrets key here is not" : "There is no secrets key here, and the backup does not hold"} the key of the backed-up portal (fingerprint ${manifest.secretsKey.fingerprint}): set SECRETS_KEY or put its secrets.key in the data folder first`,
    );
  if (manifest.database.kind !== target.kind)
    throw new BackupRefusal(
      `The backup is of a ${manifest.database.kind} database; restoring it into ${target.kind} is not supported`,
    );
  const dump = path.join(dir, manifest.database.file);
  if (target.kind === "postgres") await restorePostgres(target.url, dump);
  else await restorePglite(target.dir, dump);
  const tempDir = path.join(dataDir, `restoring-${randomBytes(6).toString("hex")}`);
  await mkdir(tempDir, { recursive: true });
  for (const entry of manifest.files) {
    const temp = path.join(tempDir, `restore-${randomBytes(12).toString("hex")}`);
    await pipeline(
      createReadStream(path.join(dir, "files", entry.store, shardedName(entry.sha256))),
      createWriteStream(temp),
    );
    await stores[entry.store].adopt(temp, entry.sha256);
  }
  await rm(tempDir, { recursive: true, force: true });
  return manifest;
}
