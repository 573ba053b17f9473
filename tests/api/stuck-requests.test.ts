/**
 * One request must never stop the server answering: a query that escapes its transaction is
 * refused at once instead of waiting for the transaction that waits for it (PGlite has one
 * session), and a request still working after the time-out answers 503 and gives back the
 * transaction it held. An answer never leaves before the commit of the transaction that made it.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tuneFilePurchases, tuneFiles, userVehicles } from "../../server/db/schema";
import { QueryEscapedTransactionError } from "../../server/db/transaction-guard";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "STUCK64K" });

/** Rejects when `work` has not settled within `ms`: what "the server still answers" means here. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe.each(apiDatabases)("a stuck request on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let buyer: TestUser;
  let tuneId: string;
  let releaseStuck: () => void = () => undefined;

  beforeAll(async () => {
    // A short time-out so that the stuck route below runs out of time in the test.
    test = await startTestApp(kind, { REQUEST_TIMEOUT_MS: "1500" });
    app = test.app;
    // A handler that holds a row lock inside a transaction and then waits for something that
    // never comes (until the test releases it): what a hung downstream call looks like.
    app.post("/api/v1/test-only/stuck/:id", async (request) => {
      const { id } = request.params as { id: string };
      return app.ctx.db.transaction(async (tx) => {
        await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
        await new Promise<void>((resolve) => {
          releaseStuck = resolve;
        });
        await tx.update(tuneFiles).set({ title: "written by the stuck request" }).where(eq(tuneFiles.id, id));
        return { done: true };
      });
    });
    // A handler that answers from inside its transaction, before the commit.
    app.post("/api/v1/test-only/answer-inside", async (_request, reply) =>
      app.ctx.db.transaction(async (tx) => {
        await tx.select({ n: sql<number>`1` }).from(tuneFiles).limit(1);
        return reply.status(201).send({ stored: true });
      }),
    );
    [admin, dealer, otherDealer, buyer] = await createUsers(test, ["admin", "dealer", "dealer", "customer"]);
    await storeFirmware(admin, demo);
    await call("GET", "/tune-files", buyer);
    const created = await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" });
    expect(created.statusCode, created.body).toBe(201);
    tuneId = created.json().id;
    // The buyer holds a licence for the tune, which the dealer then keeps unpublished.
    const [vehicle] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: buyer.uid, name: "Buyer's hatch" })
      .returning();
    await app.ctx.db
      .insert(tuneFilePurchases)
      .values({ customerUid: buyer.uid, tuneFileId: tuneId, vehicleId: vehicle.id, grantedBy: dealer.uid });
    await app.ctx.db.update(tuneFiles).set({ published: false }).where(eq(tuneFiles.id, tuneId));
  });
  afterAll(async () => {
    releaseStuck();
    await test?.close();
  });

  it("refuses a change by a non-owner of an unpublished tune and keeps answering health checks", async () => {
    const attempts = [
      { who: buyer, method: "PATCH" as const, status: 403 },
      { who: otherDealer, method: "PATCH" as const, status: 404 },
      { who: buyer, method: "DELETE" as const, status: 403 },
      { who: otherDealer, method: "DELETE" as const, status: 404 },
    ];
    for (const { who, method, status } of attempts) {
      const response = await within(
        5_000,
        `${method} by a non-owner`,
        call(method, `/tune-files/${tuneId}`, who, method === "PATCH" ? { title: "Hijacked" } : undefined),
      );
      expect(response.statusCode, response.body).toBe(status);
    }
    const health = await within(1_000, "GET /health", call("GET", "/health", null));
    expect(health.statusCode).toBe(200);
    const [row] = await app.ctx.db.select().from(tuneFiles).where(eq(tuneFiles.id, tuneId));
    expect(row.title).toBe("Stage 1");
  });

  it("refuses at once a query on the outer handle inside a transaction, and the database stays usable", async () => {
    const { db } = app.ctx;
    const escaped = db.transaction(async () => {
      await db.select({ id: tuneFiles.id }).from(tuneFiles);
    });
    await expect(within(1_000, "the escaped query", escaped)).rejects.toBeInstanceOf(QueryEscapedTransactionError);
    const nested = db.transaction(async () => db.transaction(async () => undefined));
    await expect(within(1_000, "a transaction opened on the outer handle", nested)).rejects.toBeInstanceOf(
      QueryEscapedTransactionError,
    );
    const answer = await within(1_000, "a query after them", db.select({ n: sql<number>`1` }).from(tuneFiles).limit(1));
    expect(answer).toEqual([{ n: 1 }]);
  });

  it("refuses an answer sent from inside an open transaction, before its commit, and answers after a commit", async () => {
    const inside = await within(
      1_000,
      "the answer from inside a transaction",
      call("POST", "/test-only/answer-inside", dealer),
    );
    expect(inside.statusCode, inside.body).toBe(500);
    expect(inside.json()).toMatchObject({ statusCode: 500 });
    expect((await call("GET", "/health", null)).statusCode).toBe(200);
  });

  it("answers 503 with Retry-After after the time-out and releases the transaction it held", async () => {
    const stuck = await within(5_000, "the stuck request", call("POST", `/test-only/stuck/${tuneId}`, dealer));
    expect(stuck.statusCode, stuck.body).toBe(503);
    expect(stuck.headers["retry-after"]).toBe("5");
    expect(stuck.json()).toMatchObject({ statusCode: 503, message: "Service unavailable" });
    // The row lock (and on PGlite the only session) is free again: the owner's change goes through.
    const change = await within(
      1_000,
      "a change to the row the stuck request had locked",
      call("PATCH", `/tune-files/${tuneId}`, dealer, { title: "Stage 1 (fixed)" }),
    );
    expect(change.statusCode, change.body).toBe(200);
    // The abandoned handler's late write finds its transaction gone and changes nothing.
    releaseStuck();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [row] = await app.ctx.db.select().from(tuneFiles).where(eq(tuneFiles.id, tuneId));
    expect(row.title).toBe("Stage 1 (fixed)");
    expect((await call("GET", "/health", null)).statusCode).toBe(200);
  });
});
