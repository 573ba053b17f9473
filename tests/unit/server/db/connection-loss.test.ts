import type pg from "pg";
import { describe, expect, it } from "vitest";
import { isConnectionLoss, isPlainRead, retryReadsOnConnectionLoss } from "../../../../server/db/connection-loss";

const terminated = () =>
  Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

/** A pool whose `query` fails with `failures` (one per call, in order) before answering. */
function fakePool(failures: Error[]) {
  const calls: string[] = [];
  const pool = {
    query: async (config: string | { text: string }) => {
      calls.push(typeof config === "string" ? config : config.text);
      const failure = failures.shift();
      if (failure) throw failure;
      return { rows: [{ n: 1 }] };
    },
  };
  retryReadsOnConnectionLoss(pool as unknown as pg.Pool);
  return { pool: pool as unknown as pg.Pool, calls };
}

describe("database connection loss", () => {
  it("recognises a lost or refused connection, also when Drizzle wraps it", () => {
    expect(isConnectionLoss(terminated())).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isConnectionLoss(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("Failed query: select 1"), { cause: terminated() }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionLoss(new Error("syntax error at or near"))).toBe(false);
  });

  it("counts only plain reads as safe to run again", () => {
    expect(isPlainRead('select "id" from "tune_files" where "id" = $1')).toBe(true);
    expect(isPlainRead("  WITH x AS (select 1) select * from x")).toBe(true);
    expect(isPlainRead('select "id" from "tune_files" for update')).toBe(false);
    expect(isPlainRead('insert into "notifications" ("id") values ($1)')).toBe(false);
    expect(isPlainRead("with gone as (delete from t returning id) select * from gone")).toBe(false);
    expect(isPlainRead("select nextval('s')")).toBe(false);
  });

  it("runs a read once more on a fresh connection after losing its connection", async () => {
    const { pool, calls } = fakePool([terminated()]);
    await expect(pool.query({ text: "select 1 as n" })).resolves.toEqual({ rows: [{ n: 1 }] });
    expect(calls).toHaveLength(2);
  });

  it("tries a read only once more, and never repeats a write", async () => {
    const twice = fakePool([terminated(), terminated()]);
    await expect(twice.pool.query({ text: "select 1" })).rejects.toMatchObject({ code: "57P01" });
    expect(twice.calls).toHaveLength(2);
    const write = fakePool([terminated()]);
    await expect(write.pool.query({ text: "update t set a = 1" })).rejects.toMatchObject({ code: "57P01" });
    expect(write.calls).toHaveLength(1);
  });

  it("does not repeat a read that failed for another reason", async () => {
    const { pool, calls } = fakePool([Object.assign(new Error("division by zero"), { code: "22012" })]);
    await expect(pool.query("select 1/0")).rejects.toMatchObject({ code: "22012" });
    expect(calls).toHaveLength(1);
  });
});
