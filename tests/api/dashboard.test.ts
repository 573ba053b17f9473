/**
 * `GET /dashboard`: each role's figures, computed from rows this suite makes on a fresh database,
 * so every number is known exactly; one customer's figures never count another's rows.
 */
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminDashboard, CustomerDashboard, DealerDashboard } from "../../contracts/dashboard";
import {
  dataLogs,
  dealerProfiles,
  flashLogs,
  notifications,
  orders,
  supportRequests,
  tuneFilePurchases,
  tuneFiles,
  tuningRequests,
  users,
  userVehicles,
} from "../../server/db/schema";
import { failedJobCount, startOfUtcDay } from "../../server/services/dashboard";
import { apiDatabases, createUser, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const DAY_MS = 86_400_000;
const questionnaire = {
  fuel: "98",
  intake: "",
  exhaust: "",
  turbo: "",
  intercooler: "",
  transmission: "manual",
  targetPowerHp: null,
  notes: "",
} as const;

describe.each(apiDatabases)("dashboard: each role's live figures on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let golfId: string;
  let polo: string;

  const dashboardOf = async <T>(user: TestUser) => {
    const answer = await call("GET", "/dashboard", user);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as T;
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    // Two kinds of this suite's own on the app's queue (defined before it starts, at ready): one fails for good, one works.
    app.ctx.jobs.define({
      kind: "test.failing",
      retryLimit: 0,
      handler: async () => {
        throw new Error("disk on fire");
      },
    });
    app.ctx.jobs.define({ kind: "test.working", handler: async () => ({ done: 1 }) });
    await app.ready();
    [admin, dealer, otherDealer, customer, stranger] = await createUsers(test, [
      "admin",
      "dealer",
      "dealer",
      "customer",
      "customer",
    ]);
    // Each signs in once: the users table mirrors them.
    for (const user of [admin, dealer, otherDealer, customer, stranger])
      expect((await call("GET", "/auth/account", user)).statusCode).toBe(200);
    const { db } = app.ctx;
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY_MS);

    // Sign-ups: the admin 30 days ago, the dealers 3 days ago, the customers now.
    await db
      .update(users)
      .set({ createdAt: ago(30) })
      .where(eq(users.uid, admin.uid));
    await db
      .update(users)
      .set({ createdAt: ago(3) })
      .where(inArray(users.uid, [dealer.uid, otherDealer.uid]));

    // The customer's two cars, the stranger's one.
    const [golf, poloRow, strangers] = await db
      .insert(userVehicles)
      .values([
        { ownerUid: customer.uid, name: "Golf GTI", vin: "WVWZZZ1KZAW000001", firmwareId: "fw-golf" },
        { ownerUid: customer.uid, name: "Polo", vin: "WVWZZZ6RZAW000002" },
        { ownerUid: stranger.uid, name: "Stranger's Audi", vin: "WAUZZZ8VZAW000003" },
      ])
      .returning();
    golfId = golf.id;
    polo = poloRow.id;

    // Flashes: the customer's newest failed (today), an older success; the stranger's newer success.
    await db.insert(flashLogs).values([
      {
        vehicleId: golf.id,
        kind: "tune",
        sha256: "a".repeat(64),
        result: "success",
        reportedBy: customer.uid,
        flashedAt: ago(2),
        tuneTitle: "Stage 1",
      },
      {
        vehicleId: poloRow.id,
        kind: "stock",
        sha256: "b".repeat(64),
        result: "failed",
        reportedBy: customer.uid,
        flashedAt: new Date(now - 1000),
      },
      {
        vehicleId: strangers.id,
        kind: "tune",
        sha256: "c".repeat(64),
        result: "success",
        reportedBy: stranger.uid,
        flashedAt: new Date(now),
      },
      // Failed, but before today: not counted among today's failures.
      {
        vehicleId: strangers.id,
        kind: "tune",
        sha256: "d".repeat(64),
        result: "failed",
        reportedBy: stranger.uid,
        flashedAt: new Date(startOfUtcDay(new Date(now)).getTime() - 60_000),
      },
    ]);

    // Tunes: the dealer's two published and one draft, the other dealer's one published.
    const [tuneA, tuneB] = await db
      .insert(tuneFiles)
      .values([
        {
          dealerUid: dealer.uid,
          firmwareId: "fw-golf",
          title: "Stage 1",
          published: true,
          priceCents: 5000,
          currency: "EUR",
        },
        {
          dealerUid: dealer.uid,
          firmwareId: "fw-golf",
          title: "Stage 2",
          published: true,
          priceCents: 9000,
          currency: "EUR",
        },
        { dealerUid: dealer.uid, firmwareId: "fw-golf", title: "Draft", published: false },
        {
          dealerUid: otherDealer.uid,
          firmwareId: "fw-golf",
          title: "Other's",
          published: true,
          priceCents: 100,
          currency: "EUR",
        },
      ])
      .returning();

    // Licences: two of the customer's (one flashed), one of the stranger's (the dealer manages that car too).
    await db.insert(tuneFilePurchases).values([
      {
        customerUid: customer.uid,
        tuneFileId: tuneA.id,
        vehicleId: golf.id,
        grantedBy: dealer.uid,
        consumedAt: ago(1),
      },
      { customerUid: customer.uid, tuneFileId: tuneB.id, vehicleId: golf.id, grantedBy: dealer.uid },
      { customerUid: stranger.uid, tuneFileId: tuneA.id, vehicleId: strangers.id, grantedBy: dealer.uid },
    ]);

    // Requests to the dealer: the customer's submitted and quoted (open) and accepted (final); the stranger's in progress and late.
    const request = (
      customerUid: string,
      vehicleId: string,
      state: (typeof tuningRequests.$inferInsert)["state"],
      dealerUid = dealer.uid,
    ) => ({
      customerUid,
      dealerUid,
      vehicleId,
      vehicleName: "car",
      firmwareId: "fw-golf",
      stockSha256: "e".repeat(64),
      stockSize: 1,
      questionnaire,
      state,
      freeRevisionDays: 14,
    });
    await db.insert(tuningRequests).values([
      request(customer.uid, poloRow.id, "submitted"),
      // Past its date, but unpaid: not late.
      { ...request(customer.uid, poloRow.id, "quoted"), dueAt: new Date(Date.now() - DAY_MS) },
      request(customer.uid, golf.id, "accepted"),
      // Due yesterday: late.
      { ...request(stranger.uid, strangers.id, "in-progress"), dueAt: new Date(Date.now() - DAY_MS) },
      request(stranger.uid, strangers.id, "submitted", otherDealer.uid),
    ]);

    // Sales: this month two EUR and one GBP paid, one refunded, one created; one paid before this month; one of the other dealer's.
    const monthStart = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1));
    const order = (
      amountCents: number,
      currency: string,
      status: (typeof orders.$inferInsert)["status"],
      paidAt: Date | null,
      dealerUid = dealer.uid,
    ) => ({
      kind: "tune-file" as const,
      customerUid: customer.uid,
      dealerUid,
      title: "Stage 1",
      amountCents,
      currency,
      feeCents: 0,
      status,
      provider: "sandbox" as const,
      paidAt,
    });
    await db
      .insert(orders)
      .values([
        order(5000, "EUR", "paid", new Date(now)),
        order(9000, "EUR", "paid", monthStart),
        order(4000, "GBP", "paid", new Date(now)),
        order(7000, "EUR", "refunded", new Date(now)),
        order(3000, "EUR", "created", null),
        order(6000, "EUR", "paid", new Date(monthStart.getTime() - 1000)),
        order(1111, "EUR", "paid", new Date(now), otherDealer.uid),
      ]);

    // Data logs: three of the customer's, one of the stranger's.
    const log = (ownerUid: string, title: string, createdAt: Date) => ({
      ownerUid,
      title,
      format: "generic-csv",
      fileName: "x.csv",
      fileSha256: "0".repeat(64),
      fileSize: 1,
      columnsSha256: "1".repeat(64),
      columnsSize: 1,
      rowCount: 1,
      durationSeconds: 1,
      channels: [],
      meta: {},
      createdAt,
    });
    await db
      .insert(dataLogs)
      .values([
        log(customer.uid, "oldest pull", ago(3)),
        log(customer.uid, "middle pull", ago(2)),
        log(customer.uid, "newest pull", ago(1)),
        log(stranger.uid, "not yours", new Date(now)),
      ] as never);

    // Notifications: the customer's two unread and one read; the stranger's one unread.
    await db.insert(notifications).values([
      { recipientUid: customer.uid, kind: "tuning-request", title: "Quoted" },
      { recipientUid: customer.uid, kind: "tuning-request", title: "Quoted again" },
      { recipientUid: customer.uid, kind: "tuning-request", title: "Read", readAt: new Date(now) },
      { recipientUid: stranger.uid, kind: "tuning-request", title: "Not yours" },
    ] as never);

    // Admin: one pending dealer application, one approved; onboarding requests new, investigating, supported.
    await db.insert(dealerProfiles).values([
      { userUid: dealer.uid, businessName: "Dora Tuning", status: "approved" },
      { userUid: otherDealer.uid, businessName: "Pending Motors", status: "pending" },
    ]);
    const onboarding = (status: (typeof supportRequests.$inferInsert)["status"]) => ({
      requesterUid: stranger.uid,
      vin: "WAUZZZ8VZAW000003",
      make: "Audi",
      model: "A4",
      year: 2012,
      status,
    });
    await db
      .insert(supportRequests)
      .values([onboarding("new"), onboarding("investigating"), onboarding("supported"), onboarding("rejected")]);

    // Jobs: one fails, one succeeds.
    await app.ctx.jobs.send("test.failing");
    await app.ctx.jobs.send("test.working");
    await app.ctx.jobs.idle();
  });
  afterAll(async () => test?.close());

  it("a customer sees their own cars, last flash, licences, open requests, logs and unread notifications, and nobody else's", async () => {
    const figures = await dashboardOf<CustomerDashboard>(customer);
    expect(figures.role).toBe("customer");
    expect(figures.vehicles.total).toBe(2);
    expect(figures.vehicles.items.map((vehicle) => [vehicle.id, vehicle.name, vehicle.vin])).toEqual([
      [golfId, "Golf GTI", "WVWZZZ1KZAW000001"],
      [polo, "Polo", "WVWZZZ6RZAW000002"],
    ]);
    expect(figures.lastFlash).toMatchObject({ vehicleId: polo, vehicleName: "Polo", result: "failed", kind: "stock" });
    expect(figures.licences).toEqual({ total: 2, unused: 1 });
    expect(figures.openRequests.total).toBe(2);
    expect(figures.openRequests.items.map((item) => item.state).sort()).toEqual(["quoted", "submitted"]);
    expect(figures.openRequests.items.every((item) => item.vehicleId === polo && /^TR-\d+$/.test(item.reference))).toBe(
      true,
    );
    expect(figures.dataLogs.total).toBe(3);
    expect(figures.dataLogs.recent.map((item) => item.title)).toEqual(["newest pull", "middle pull", "oldest pull"]);
    expect(figures.unreadNotifications).toBe(2);

    const theirs = await dashboardOf<CustomerDashboard>(stranger);
    expect(theirs.vehicles.total).toBe(1);
    expect(theirs.vehicles.items.map((vehicle) => vehicle.name)).toEqual(["Stranger's Audi"]);
    expect(theirs.vehicles.items.some((vehicle) => vehicle.id === golfId || vehicle.id === polo)).toBe(false);
    expect(theirs.lastFlash).toMatchObject({ result: "success", vehicleName: "Stranger's Audi" });
    expect(theirs.licences).toEqual({ total: 1, unused: 1 });
    expect(theirs.openRequests.total).toBe(2);
    expect(theirs.dataLogs.recent.map((item) => item.title)).toEqual(["not yours"]);
    expect(theirs.unreadNotifications).toBe(1);
  });

  it("a customer with nothing yet gets zeros and no last flash", async () => {
    const newcomer = await createUser(test, "customer");
    const figures = await dashboardOf<CustomerDashboard>(newcomer);
    expect(figures).toEqual({
      role: "customer",
      vehicles: { total: 0, items: [] },
      lastFlash: null,
      licences: { total: 0, unused: 0 },
      openRequests: { total: 0, items: [] },
      dataLogs: { total: 0, recent: [] },
      unreadNotifications: 0,
    });
    await app.ctx.db.delete(users).where(eq(users.uid, newcomer.uid));
  });

  it("a dealer sees their queue by state, this month's paid sales per currency, managed cars and published tunes", async () => {
    const figures = await dashboardOf<DealerDashboard>(dealer);
    expect(figures.role).toBe("dealer");
    expect(figures.queue).toEqual([
      { state: "submitted", count: 1 },
      { state: "quoted", count: 1 },
      { state: "in-progress", count: 1 },
    ]);
    expect(figures.late).toBe(1);
    expect(figures.sales.byCurrency).toEqual([
      { currency: "EUR", amountCents: 14000, count: 2 },
      { currency: "GBP", amountCents: 4000, count: 1 },
    ]);
    expect(new Date(figures.sales.since).getUTCDate()).toBe(1);
    // Golf (licences), Polo (open requests) and the stranger's car (licence and request).
    expect(figures.managedVehicles).toBe(3);
    expect(figures.tunesPublished).toBe(2);

    const other = await dashboardOf<DealerDashboard>(otherDealer);
    expect(other.queue).toEqual([{ state: "submitted", count: 1 }]);
    expect(other.late).toBe(0);
    expect(other.sales.byCurrency).toEqual([{ currency: "EUR", amountCents: 1111, count: 1 }]);
    expect(other.managedVehicles).toBe(1);
    expect(other.tunesPublished).toBe(1);
  });

  it("an admin sees today's failed flashes, pending applications and onboarding requests, failed jobs and sign-ups", async () => {
    const figures = await dashboardOf<AdminDashboard>(admin);
    expect(figures).toEqual({
      role: "admin",
      failedFlashesToday: 1,
      pendingDealerApplications: 1,
      pendingOnboardingRequests: 2,
      failedJobs: 1,
      // Created now: the two customers; in the last 7 days also the two dealers; the admin 30 days ago.
      signUps: { today: 2, last7Days: 4, recent: expect.any(Array) },
    });
    // Newest first: the two customers (created now), then the two dealers (3 days ago); not the admin (30 days ago).
    const recent = figures.signUps.recent.map((user) => user.uid);
    expect(recent.slice(0, 2).sort()).toEqual([customer.uid, stranger.uid].sort());
    expect(recent.slice(2).sort()).toEqual([dealer.uid, otherDealer.uid].sort());
    expect(figures.signUps.recent.find((user) => user.uid === dealer.uid)).toMatchObject({
      email: dealer.email,
      role: "dealer",
    });
    expect(await failedJobCount(app.ctx)).toBe(1);
  });

  it("answers 401 to a caller who is not signed in", async () => {
    const answer = await call("GET", "/dashboard", null);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ statusCode: 401, message: expect.any(String) });
  });
});
