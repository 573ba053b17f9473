/**
 * A custom tune the demo dealer owes and is late with: the demo customer asked for it for the demo
 * car, the dealer quoted four days, the customer paid in the sandbox and work started, all played
 * through the API as people do it; then it is moved back five days, so it was paid five days ago
 * and due yesterday, and the dealer's queue shows a late ticket. Made only while the demo customer
 * has asked the demo dealer nothing, so a second start changes nothing.
 */
import { type AnyColumn, and, eq, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import type { Role } from "../../contracts/account";
import {
  dealerProfiles,
  ledgerEntries,
  orders,
  tuningRequestEvents,
  tuningRequestFiles,
  tuningRequests,
  userVehicles,
} from "../db/schema";
import { DEMO_PASSWORD } from "./demo-accounts";
import { DEMO_VIN } from "./tunes";
import { emulatorSignIn } from "./virtual-car/emulator-sign-in";
import { InjectPortal } from "./virtual-car/inject-portal";

const DAYS_BACK = 5;

export async function seedTuningRequests(
  app: FastifyInstance,
  accounts: { uid: string; email: string; role: Role }[],
): Promise<void> {
  const { ctx } = app;
  const customer = accounts.find((a) => a.role === "customer")!;
  const dealer = accounts.find((a) => a.role === "dealer")!;
  const [asked] = await ctx.db
    .select({ id: tuningRequests.id })
    .from(tuningRequests)
    .where(and(eq(tuningRequests.customerUid, customer.uid), eq(tuningRequests.dealerUid, dealer.uid)))
    .limit(1);
  const [vehicle] = await ctx.db
    .select({ id: userVehicles.id })
    .from(userVehicles)
    .where(and(eq(userVehicles.ownerUid, customer.uid), eq(userVehicles.vin, DEMO_VIN)));
  const [profile] = await ctx.db
    .select({ id: dealerProfiles.id })
    .from(dealerProfiles)
    .where(eq(dealerProfiles.userUid, dealer.uid));
  if (asked || !vehicle || !profile) return;
  if (!ctx.identity.emulatorHost) {
    app.log.warn(
      "the demo's late tuning request is made by signing in at the Auth emulator, which is not configured: skipped",
    );
    return;
  }
  const signedIn = async (email: string) =>
    new InjectPortal(app, await emulatorSignIn(ctx.identity.emulatorHost!, email, DEMO_PASSWORD));
  const [asCustomer, asDealer] = [await signedIn(customer.email), await signedIn(dealer.email)];
  const { id } = await asCustomer.call<{ id: string }>("POST", "tuning-requests", {
    vehicleId: vehicle.id,
    dealerId: profile.id,
    questionnaire: {
      fuel: "98",
      transmission: "manual",
      intake: "Open cone filter",
      exhaust: "Cat-back",
      targetPowerHp: 260,
      notes: "Daily driver; smoother part-throttle and a bit more mid-range, please",
    },
  });
  const act = (body: object) => asDealer.call("PATCH", `tuning-requests/${id}`, body);
  await act({
    action: "quote",
    priceCents: 29000,
    currency: "EUR",
    expectedDays: 4,
    note: "Stage 1 with a dyno check",
  });
  const { order } = await asCustomer.call<{ order: { id: string } }>("POST", "payments/tuning-request-order", {
    tuningRequestId: id,
  });
  await asCustomer.call("POST", "payments/sandbox/pay", { orderId: order.id, cardNumber: "4242 4242 4242 4242" });
  await act({ action: "start", note: "On the rolling road this week" });
  await act({ action: "assign", assignee: "Sam (calibration)" });
  await moveBack(app, id, order.id);
}

/** Everything the portal stamped on the ticket, its thread, files, order and ledger, moved DAYS_BACK earlier. */
async function moveBack(app: FastifyInstance, id: string, orderId: string): Promise<void> {
  const r = tuningRequests;
  const stamped: Array<{ table: PgTable; columns: AnyColumn[]; where: SQL }> = [
    {
      table: r,
      columns: [
        r.createdAt,
        r.updatedAt,
        r.quotedAt,
        r.dueAt,
        r.lastCustomerActionAt,
        r.customerReadAt,
        r.dealerReadAt,
      ],
      where: eq(r.id, id),
    },
    { table: tuningRequestEvents, columns: [tuningRequestEvents.at], where: eq(tuningRequestEvents.requestId, id) },
    {
      table: tuningRequestFiles,
      columns: [tuningRequestFiles.createdAt],
      where: eq(tuningRequestFiles.requestId, id),
    },
    { table: orders, columns: [orders.createdAt, orders.updatedAt, orders.paidAt], where: eq(orders.id, orderId) },
    { table: ledgerEntries, columns: [ledgerEntries.createdAt], where: eq(ledgerEntries.orderId, orderId) },
  ];
  const back = sql.raw(`interval '${DAYS_BACK} days'`);
  await app.ctx.db.transaction(async (tx) => {
    for (const { table, columns, where } of stamped) {
      const set = columns.map(
        (column) => sql`${sql.identifier(column.name)} = ${sql.identifier(column.name)} - ${back}`,
      );
      await tx.execute(sql`UPDATE ${table} SET ${sql.join(set, sql`, `)} WHERE ${where}`);
    }
  });
}
