/**
 * Backups: a portal with the demo data and an uploaded log is backed up, restored into a fresh
 * database and fresh storage, and every row of every table and every file's hash compare equal.
 * A damaged backup, a target that already holds a portal, a missing or other secrets key, a
 * file gone from storage, and a second process on a PGlite folder are refused with a sentence
 * naming what is wrong, before anything is written.
 */
import { createHash, randomBytes } from "node:crypto";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/connection";
import { seedDemo } from "../../server/seed";
import { type BackupManifest, BackupRefusal, backUp, restore } from "../../server/services/backups";
import type { BlobStore } from "../../server/services/blob-store";
import { DiskBlobStore } from "../../server/services/disk-blob-store";
import { SecretBox } from "../../server/services/secret-box";
import { uploadFixtureLog } from "./support/data-log-uploads";
import { bothDatabases, createUsers, startTestApp, type TestApp } from "./support/harness";
import { createPostgresDatabase } from "./support/test-databases";

const SCHEMAS = ["public", "drizzle"];

/** Every row of every table of the portal's schemas, each table's rows in a stable order. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const rowsOf = async <Row>(query: string) =>
    ((await database.db.execute(sql.raw(query))) as unknown as { rows: Row[] }).rows;
  const tables = await rowsOf<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema IN (${SCHEMAS.map((s) => `'${s}'`).join(", ")})
     ORDER BY 1, 2`,
  );
  const rows: Record<string, string[]> = {};
  for (const { schema, name } of tables)
    rows[`${schema}.${name}`] = (
      await rowsOf<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${schema}"."${name}" t`)
    )
      .map((r) => r.row)
      .sort();
  return rows;
}

/** Each stored blob's name and the SHA-256 of its bytes as read back. */
async function fileHashes(store: BlobStore): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const blob of await store.list()) {
    const hash = createHash("sha256");
    for await (const chunk of await store.stream(blob.sha256)) hash.update(chunk as Buffer);
    out.push([blob.sha256, hash.digest("hex")]);
  }
  return out.sort();
}

describe.each(bothDatabases)("backups on %s", (kind) => {
  let source: TestApp;
  let work: string;
  let backup: string;
  let manifest: BackupManifest;
  const ctx = () => source.app.ctx;
  const stores = () => ({ blobs: ctx().blobs, dataLogBlobs: ctx().dataLogBlobs });

  /** A fresh database of this kind and fresh disk stores, to restore into. */
  async function freshTarget() {
    const dataDir = await mkdtemp(path.join(work, "target-"));
    const stores = {
      blobs: new DiskBlobStore(dataDir),
      dataLogBlobs: new DiskBlobStore(path.join(dataDir, "data-logs")),
    };
    if (kind === "postgres") {
      const postgres = await createPostgresDatabase("template0");
      return { dataDir, stores, target: { kind, url: postgres.url } as const, drop: postgres.drop };
    }
    return { dataDir, stores, target: { kind, dir: path.join(dataDir, "pglite") } as const, drop: async () => {} };
  }
  const openTarget = (target: Awaited<ReturnType<typeof freshTarget>>["target"]) =>
    target.kind === "postgres"
      ? openDatabase({ databaseUrl: target.url, pgliteDir: "" })
      : openDatabase({ pgliteDir: target.dir });

  beforeAll(async () => {
    work = path.resolve(".test-data", `backup-${randomBytes(4).toString("hex")}`);
    source = await startTestApp(kind);
    await seedDemo(source.app);
    const [owner] = await createUsers(source, ["customer"]);
    await uploadFixtureLog(source, owner, "logs/romraider-semicolon-decimal-comma.csv");
    backup = path.join(work, "backup");
    manifest = await backUp(ctx().database, stores(), ctx().secrets, backup);
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("restores every row of every table and every file, byte for byte, into a fresh portal", async () => {
    expect(manifest.files.filter((file) => file.store === "blobs").length).toBeGreaterThan(2);
    expect(manifest.files.filter((file) => file.store === "dataLogBlobs").length).toBeGreaterThanOrEqual(2);
    const fresh = await freshTarget();
    try {
      await restore(backup, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir);
      const restored = await openTarget(fresh.target);
      try {
        const [before, after] = [await everyRow(ctx().database), await everyRow(restored)];
        expect(Object.keys(after)).toEqual(Object.keys(before));
        expect(before["public.data_logs"].length).toBeGreaterThan(1);
        expect(after).toEqual(before);
      } finally {
        await restored.close();
      }
      for (const store of ["blobs", "dataLogBlobs"] as const) {
        const copied = await fileHashes(fresh.stores[store]);
        // Every file a record holds, each under its own hash; nothing else.
        expect(copied.every(([name, hash]) => name === hash)).toBe(true);
        expect(copied.map(([name]) => name)).toEqual(
          manifest.files.filter((file) => file.store === store).map((file) => file.sha256),
        );
      }
    } finally {
      await fresh.drop();
    }
  });

  it("refuses a damaged backup, naming the damaged file, before writing anything", async () => {
    const damaged = path.join(work, "damaged");
    const copy = await backUp(ctx().database, stores(), ctx().secrets, damaged);
    const file = copy.files[0];
    await appendFile(path.join(damaged, "files", file.store, file.sha256.slice(0, 2), file.sha256), "x");
    const fresh = await freshTarget();
    try {
      const refused = restore(damaged, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir);
      await expect(refused).rejects.toThrow(BackupRefusal);
      await expect(refused).rejects.toThrow(`${file.sha256} does not match its SHA-256`);
      expect(await fresh.stores.blobs.list()).toEqual([]);
      await rm(path.join(damaged, copy.database.file));
      await expect(restore(damaged, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir)).rejects.toThrow(
        `The backup's ${copy.database.file} is missing`,
      );
      await rm(path.join(damaged, "manifest.json"));
      await expect(restore(damaged, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir)).rejects.toThrow(
        "holds no manifest.json",
      );
    } finally {
      await fresh.drop();
    }
  });

  it("refuses a target that holds a portal already, and another or a missing secrets key", async () => {
    const fresh = await freshTarget();
    try {
      const other = SecretBox.fromKey(randomBytes(32));
      await expect(restore(backup, fresh.target, fresh.stores, other, fresh.dataDir)).rejects.toThrow(
        `not the key of the backed-up portal (fingerprint ${manifest.secretsKey.fingerprint})`,
      );
      await expect(restore(backup, fresh.target, fresh.stores, null, fresh.dataDir)).rejects.toThrow(
        "There is no secrets key here",
      );
      await restore(backup, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir);
      await expect(restore(backup, fresh.target, fresh.stores, ctx().secrets, fresh.dataDir)).rejects.toThrow(
        kind === "postgres" ? /already holds \d+ tables/ : "already exists",
      );
    } finally {
      await fresh.drop();
    }
  });

  it("refuses to back up when a file a record holds is gone from storage, or into a folder holding a backup", async () => {
    const missing = manifest.files.find((file) => file.store === "dataLogBlobs")!;
    const broken = {
      ...stores(),
      dataLogBlobs: Object.assign(Object.create(ctx().dataLogBlobs) as BlobStore, {
        exists: async (sha256: string) => sha256 !== missing.sha256 && ctx().dataLogBlobs.exists(sha256),
      }),
    };
    await expect(backUp(ctx().database, broken, ctx().secrets, path.join(work, "gone"))).rejects.toThrow(
      `The file ${missing.sha256} a record of dataLogBlobs refers to is missing`,
    );
    await expect(backUp(ctx().database, stores(), ctx().secrets, backup)).rejects.toThrow("already holds a backup");
  });

  it.runIf(kind === "pglite")(
    "refuses to open a PGlite folder another process holds, and takes over a crashed one's",
    async () => {
      const dir = path.join(work, "locked", "pglite");
      await (await openDatabase({ pgliteDir: dir })).close();
      // Closed, the folder is free again.
      await expect(readFile(`${dir}.pid`, "utf8")).rejects.toThrow();
      // Another process's lock, as a running portal keeps it: this test's parent is alive.
      await writeFile(`${dir}.pid`, `${process.ppid}\n`);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(`in use by process ${process.ppid}`);
      // A lock whose process is gone was left by a crash.
      await writeFile(`${dir}.pid`, "999999999\n");
      const reopened = await openDatabase({ pgliteDir: dir });
      expect(await readFile(`${dir}.pid`, "utf8")).toBe(`${process.pid}\n`);
      await reopened.close();
    },
  );
});
