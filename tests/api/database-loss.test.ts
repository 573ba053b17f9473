/**
 * PostgreSQL going away is the server's trouble, not the caller's mistake: requests answer 503
 * with Retry-After (never a 500), reads on a connection the database ended are run again on a
 * fresh one, and the server recovers by itself once the database is back.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";
import { ADMIN_URL } from "./support/test-databases";

describe("PostgreSQL connection loss", () => {
  let test: TestApp;
  const { call } = requestsTo(() => test.app);
  let customer: TestUser;
  let admin: pg.Client;
  let database: string;

  /** Ends every session of the test's database, as a restart or a fail-over would. */
  const terminateSessions = () =>
    admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [database],
    );
  const allowConnections = (allow: boolean) => admin.query(`alter database ${database} allow_connections ${allow}`);

  beforeAll(async () => {
    test = await startTestApp("postgres");
    customer = await createUser(test, "customer");
    database = new URL(test.app.ctx.config.databaseUrl ?? "").pathname.slice(1);
    admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await allowConnections(true).catch(() => undefined);
    await admin?.end();
    await test?.close();
  });

  it("answers a read normally after the database ended its sessions", async () => {
    expect((await call("GET", "/data-logs", customer)).statusCode).toBe(200);
    await terminateSessions();
    const response = await call("GET", "/data-logs", customer);
    expect(response.statusCode, response.body).toBe(200);
  });

  it("answers 503 with Retry-After while the database refuses connections, and recovers once it is back", async () => {
    expect((await call("GET", "/data-logs", customer)).statusCode).toBe(200);
    await allowConnections(false);
    await terminateSessions();
    const read = await call("GET", "/data-logs", customer);
    expect(read.statusCode, read.body).toBe(503);
    expect(read.headers["retry-after"]).toBe("5");
    expect(read.json()).toMatchObject({ statusCode: 503, message: "Service unavailable" });
    const write = await call("PATCH", "/data-logs/00000000-0000-4000-8000-000000000000", customer, {
      title: "Renamed while down",
    });
    expect(write.statusCode, write.body).toBe(503);
    await allowConnections(true);
    expect((await call("GET", "/data-logs", customer)).statusCode).toBe(200);
  });
});
