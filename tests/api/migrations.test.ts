/**
 * Migrations on PostgreSQL as production starts them: several API instances at once against one
 * new database. Each migration must be applied exactly once, and every instance must start.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../server/db/connection";
import { createPostgresDatabase } from "./support/test-databases";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const journal = JSON.parse(readFileSync(path.join(repoRoot, "server/db/migrations/meta/_journal.json"), "utf8")) as {
  entries: unknown[];
};

describe("migrations on PostgreSQL", () => {
  it("apply each migration once when four instances start on a new database together", async () => {
    // template0: an empty database, with none of our tables.
    const { url, drop } = await createPostgresDatabase("template0");
    const instances = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url, pgliteDir: "memory://" })),
    );
    try {
      const outcomes = await Promise.allSettled(instances.map((instance) => instance.migrate()));
      expect(outcomes.map((outcome) => (outcome.status === "rejected" ? String(outcome.reason) : "ok"))).toEqual([
        "ok",
        "ok",
        "ok",
        "ok",
      ]);
      const rows = async (instance: Database, query: SQL) =>
        ((await instance.db.execute(query)) as unknown as { rows: unknown[] }).rows;
      expect(await rows(instances[0], sql`select hash from drizzle.__drizzle_migrations`)).toHaveLength(
        journal.entries.length,
      );
      // The schema is whole: a table of the last migrations answers.
      expect(await rows(instances[3], sql`select count(*)::int as n from users`)).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await drop();
    }
  });
});
