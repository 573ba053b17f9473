import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app";
import { users } from "../../server/db/schema";
import { apiDatabases, bearer, createUser, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { multipart } from "./support/multipart";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const logFile = readFileSync(path.resolve(repoRoot, "../shared/fixtures/logs/ecumaster.csv"));

/** The server as `npm start` runs it (info level), its log written to `lines`. */
describe.each(apiDatabases)("what the server logs on %s", (kind) => {
  const lines: string[] = [];
  let test: TestApp;
  let app: FastifyInstance;
  let owner: TestUser;
  const secrets = {
    sqlValue: `sql-secret-${randomBytes(6).toString("hex")}`,
    uid: `uid-secret-${randomBytes(6).toString("hex")}`,
    email: `mail-secret-${randomBytes(6).toString("hex")}@example.test`,
  };
  let shareToken: string;
  let oobCode: string;

  const log = () => lines.join("");

  beforeAll(async () => {
    // The suite's database and config, served by a second app that logs.
    const base = await startTestApp(kind, { LOG_LEVEL: "info" });
    app = await buildApp(base.app.ctx.config, {
      database: base.app.ctx.database,
      logStream: { write: (line) => void lines.push(line) },
    });
    // Failures whose SQL carries values: a bad cast of a parameter, and a duplicate key (the database repeats the key in its detail).
    app.get("/api/v1/__failing-cast", { config: { public: true } }, async () =>
      app.ctx.db.execute(sql`select ${secrets.sqlValue}::int as n`),
    );
    app.get("/api/v1/__failing-insert", { config: { public: true } }, async () => {
      for (let i = 0; i < 2; i++) await app.ctx.db.insert(users).values({ uid: secrets.uid, email: secrets.email });
      return {};
    });
    test = {
      ...base,
      app,
      async close() {
        await app.close();
        await base.close();
      },
    };
    owner = await createUser(test, "customer");
  });
  afterAll(async () => test?.close());

  it("shows a share link's URL with its token redacted", async () => {
    const body = multipart([{ name: "file", filename: "run.csv", content: logFile }]);
    const uploaded = await app.inject({
      method: "POST",
      url: "/api/v1/data-logs",
      payload: body.payload,
      headers: { ...body.headers, ...bearer(owner.token) },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const share = await app.inject({
      method: "POST",
      url: `/api/v1/data-logs/${uploaded.json().id}/share`,
      payload: { channels: [] },
      headers: bearer(owner.token),
    });
    expect(share.statusCode, share.body).toBe(201);
    shareToken = share.json().token;
    expect((await app.inject({ method: "POST", url: `/api/v1/data-logs/shared/${shareToken}` })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: "GET", url: `/api/v1/data-logs/shared/${shareToken}/columns?x=1` })).statusCode,
    ).toBe(200);

    expect(log()).not.toContain(shareToken);
    expect(log(), "the requests are still logged").toContain("/api/v1/data-logs/shared/[redacted]/columns?x=1");
  });

  it("logs that a password-reset link was made, without its code", async () => {
    const generate = vi.spyOn(app.ctx.identity.auth, "generatePasswordResetLink");
    const response = await app.inject({
      method: "POST",
      url: `/api/v1/auth/email/${owner.uid}/password-reset`,
      headers: bearer(owner.token),
    });
    expect(response.statusCode, response.body).toBe(202);
    const link = new URL(await generate.mock.results[0].value);
    oobCode = link.searchParams.get("oobCode")!;
    expect(oobCode).toBeTruthy();
    // The queue's mail worker sends it (and logs it) a moment after the 202.
    await app.ctx.jobs.idle();

    expect(log()).not.toContain(oobCode);
    expect(log()).toContain("oobCode=[redacted]");
  });

  it("logs a failed query without its parameter values", async () => {
    for (const url of ["/api/v1/__failing-cast", "/api/v1/__failing-insert"]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, response.body).toBe(500);
    }
    const failures = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request failed");
    expect(failures, "both 500s are logged, with the query").toHaveLength(2);
    expect(failures[0].err.message).toContain("select $1::int");
    expect(failures[1].err.message).toContain('insert into "users"');
    for (const value of Object.values(secrets)) expect(log()).not.toContain(value);
  });

  it("never carries the share token or the reset code, whatever was logged", () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of [shareToken, oobCode, owner.token]) expect(log()).not.toContain(secret);
  });
});
