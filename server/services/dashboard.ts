/**
 * The figures of `GET /dashboard` (contracts/dashboard.ts), per role, each read from the table the
 * page it summarises lists: the caller's cars, flashes, licences, requests, logs and notifications
 * (customers); the request queue, paid orders, managed cars and published tunes (dealers); failed
 * flashes, dealer applications, onboarding requests, failed jobs and sign-ups (admins). "Today"
 * and "this month" begin at midnight UTC.
 */
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, sql } from "drizzle-orm";
import {
  type AdminDashboard,
  type CustomerDashboard,
  DASHBOARD_LIST_SIZE,
  type Dashboard,
  type DealerDashboard,
} from "../../contracts/dashboard";
import { FINAL_STATES, TUNING_REQUEST_STATES, WORK_OWED_STATES } from "../../contracts/tuning-requests";
import type { AppContext } from "../context";
import type { Db } from "../db/handle";
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
} from "../db/schema";
import type { VerifiedCaller } from "./identity";
import { dealerManagesSql } from "./tune-access";
import { referenceOf } from "./tuning-requests";

const DAY_MS = 86_400_000;

/** Midnight UTC of the day `now` is in. */
export const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
/** Midnight UTC of the first day of the month `now` is in. */
export const startOfUtcMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

const OPEN_STATES = TUNING_REQUEST_STATES.filter((state) => !FINAL_STATES.includes(state));

/** Background jobs that failed for good (their retries spent), as the queue counts them for the server page. */
export async function failedJobCount(ctx: Pick<AppContext, "jobs">): Promise<number> {
  return (await ctx.jobs.status()).failed;
}

async function customerFigures(db: Db, uid: string): Promise<CustomerDashboard> {
  const [[vehicleCount], vehicles, [lastFlash], [licences], [openCount], openItems, [logCount], logs, [unread]] =
    await Promise.all([
      db.select({ n: count() }).from(userVehicles).where(eq(userVehicles.ownerUid, uid)),
      db
        .select({
          id: userVehicles.id,
          name: userVehicles.name,
          vin: userVehicles.vin,
          firmwareId: userVehicles.firmwareId,
        })
        .from(userVehicles)
        .where(eq(userVehicles.ownerUid, uid))
        .orderBy(userVehicles.name, userVehicles.id)
        .limit(DASHBOARD_LIST_SIZE),
      db
        .select({
          id: flashLogs.id,
          vehicleId: flashLogs.vehicleId,
          vehicleName: userVehicles.name,
          result: flashLogs.result,
          kind: flashLogs.kind,
          tuneTitle: flashLogs.tuneTitle,
          at: flashLogs.flashedAt,
        })
        .from(flashLogs)
        .innerJoin(userVehicles, eq(userVehicles.id, flashLogs.vehicleId))
        .where(eq(userVehicles.ownerUid, uid))
        .orderBy(desc(flashLogs.flashedAt), desc(flashLogs.id))
        .limit(1),
      db
        .select({ total: count(), unused: count(sql`CASE WHEN ${tuneFilePurchases.consumedAt} IS NULL THEN 1 END`) })
        .from(tuneFilePurchases)
        .where(eq(tuneFilePurchases.customerUid, uid)),
      db
        .select({ n: count() })
        .from(tuningRequests)
        .where(and(eq(tuningRequests.customerUid, uid), inArray(tuningRequests.state, OPEN_STATES))),
      db
        .select()
        .from(tuningRequests)
        .where(and(eq(tuningRequests.customerUid, uid), inArray(tuningRequests.state, OPEN_STATES)))
        .orderBy(desc(tuningRequests.createdAt), desc(tuningRequests.id))
        .limit(DASHBOARD_LIST_SIZE),
      db.select({ n: count() }).from(dataLogs).where(eq(dataLogs.ownerUid, uid)),
      db
        .select({ id: dataLogs.id, title: dataLogs.title, createdAt: dataLogs.createdAt })
        .from(dataLogs)
        .where(eq(dataLogs.ownerUid, uid))
        .orderBy(desc(dataLogs.createdAt), desc(dataLogs.id))
        .limit(DASHBOARD_LIST_SIZE),
      db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.recipientUid, uid), isNull(notifications.readAt))),
    ]);
  return {
    role: "customer",
    vehicles: { total: vehicleCount.n, items: vehicles },
    lastFlash: lastFlash ? { ...lastFlash, at: lastFlash.at.toISOString() } : null,
    licences: { total: licences.total, unused: licences.unused },
    openRequests: {
      total: openCount.n,
      items: openItems.map((row) => ({
        id: row.id,
        reference: referenceOf(row),
        vehicleId: row.vehicleId,
        vehicleName: row.vehicleName,
        state: row.state,
      })),
    },
    dataLogs: { total: logCount.n, recent: logs.map((log) => ({ ...log, createdAt: log.createdAt.toISOString() })) },
    unreadNotifications: unread.n,
  };
}

async function dealerFigures(db: Db, uid: string, now: Date): Promise<DealerDashboard> {
  const since = startOfUtcMonth(now);
  const [queue, sales, [managed], [published], [late]] = await Promise.all([
    db
      .select({ state: tuningRequests.state, count: count() })
      .from(tuningRequests)
      .where(and(eq(tuningRequests.dealerUid, uid), inArray(tuningRequests.state, OPEN_STATES)))
      .groupBy(tuningRequests.state),
    db
      .select({
        currency: orders.currency,
        amountCents: sql<number>`coalesce(sum(${orders.amountCents}), 0)`.mapWith(Number),
        count: count(),
      })
      .from(orders)
      .where(
        and(eq(orders.dealerUid, uid), eq(orders.status, "paid"), isNotNull(orders.paidAt), gte(orders.paidAt, since)),
      )
      .groupBy(orders.currency)
      .orderBy(orders.currency),
    db.select({ n: count() }).from(userVehicles).where(dealerManagesSql(uid, userVehicles.id)),
    db
      .select({ n: count() })
      .from(tuneFiles)
      .where(and(eq(tuneFiles.dealerUid, uid), eq(tuneFiles.published, true))),
    db
      .select({ n: count() })
      .from(tuningRequests)
      .where(
        and(
          eq(tuningRequests.dealerUid, uid),
          inArray(tuningRequests.state, [...WORK_OWED_STATES]),
          lt(tuningRequests.dueAt, now),
        ),
      ),
  ]);
  const order = new Map<string, number>(TUNING_REQUEST_STATES.map((state, index) => [state, index]));
  return {
    role: "dealer",
    queue: queue.sort((a, b) => (order.get(a.state) ?? 0) - (order.get(b.state) ?? 0)),
    late: late.n,
    sales: { since: since.toISOString(), byCurrency: sales },
    managedVehicles: managed.n,
    tunesPublished: published.n,
  };
}

async function adminFigures(ctx: AppContext, now: Date): Promise<AdminDashboard> {
  const { db } = ctx;
  const today = startOfUtcDay(now);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const [[failedFlashes], [applications], [onboarding], [signUps], recent, failedJobs] = await Promise.all([
    db
      .select({ n: count() })
      .from(flashLogs)
      .where(and(eq(flashLogs.result, "failed"), gte(flashLogs.flashedAt, today))),
    db.select({ n: count() }).from(dealerProfiles).where(eq(dealerProfiles.status, "pending")),
    db
      .select({ n: count() })
      .from(supportRequests)
      .where(notInArray(supportRequests.status, ["supported", "rejected"])),
    db
      .select({ today: count(sql`CASE WHEN ${gte(users.createdAt, today)} THEN 1 END`), last7Days: count() })
      .from(users)
      .where(gte(users.createdAt, weekAgo)),
    db
      .select({
        uid: users.uid,
        email: users.email,
        displayName: users.displayName,
        role: users.role,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(and(gte(users.createdAt, weekAgo), isNull(users.deletedAt)))
      .orderBy(desc(users.createdAt), desc(users.uid))
      .limit(DASHBOARD_LIST_SIZE),
    failedJobCount(ctx),
  ]);
  return {
    role: "admin",
    failedFlashesToday: failedFlashes.n,
    pendingDealerApplications: applications.n,
    pendingOnboardingRequests: onboarding.n,
    failedJobs,
    signUps: {
      today: signUps.today,
      last7Days: signUps.last7Days,
      recent: recent.map((user) => ({ ...user, createdAt: user.createdAt.toISOString() })),
    },
  };
}

/** The caller's dashboard, for the role their claims give. */
export async function dashboardFor(ctx: AppContext, caller: VerifiedCaller, now = new Date()): Promise<Dashboard> {
  if (caller.role === "admin") return adminFigures(ctx, now);
  if (caller.role === "dealer") return dealerFigures(ctx.db, caller.uid, now);
  return customerFigures(ctx.db, caller.uid);
}
