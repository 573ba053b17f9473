/**
 * `GET /dashboard`: the figures of the caller's dashboard, for their role (spec: "a dashboard per
 * role, with live figures"). Each figure names what the page it summarises lists, so the app links
 * each one to that page. Money is in the currency's minor units, as orders store it.
 */
import { z } from "zod";
import { flashResults } from "./flash-logs";
import { TUNING_REQUEST_STATES } from "./tuning-requests";

const count = z.number().int().min(0);

export const customerDashboardSchema = z.strictObject({
  role: z.literal("customer"),
  /** The caller's cars: how many, and the first few by name. */
  vehicles: z.strictObject({
    total: count,
    items: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        vin: z.string().nullable(),
        firmwareId: z.string().nullable(),
      }),
    ),
  }),
  /** The newest flash session on any of the caller's cars. */
  lastFlash: z
    .strictObject({
      id: z.string(),
      vehicleId: z.string(),
      vehicleName: z.string(),
      result: z.enum(flashResults),
      kind: z.enum(["tune", "stock"]),
      tuneTitle: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  /** Licences (tunes bought or granted for one car); unused: not flashed yet. */
  licences: z.strictObject({ total: count, unused: count }),
  /** Custom tune requests not in a final state, newest first. */
  openRequests: z.strictObject({
    total: count,
    items: z.array(
      z.strictObject({
        id: z.string(),
        reference: z.string(),
        vehicleId: z.string().nullable(),
        vehicleName: z.string(),
        state: z.enum(TUNING_REQUEST_STATES),
      }),
    ),
  }),
  /** The caller's data logs: how many, and the newest few. */
  dataLogs: z.strictObject({
    total: count,
    recent: z.array(z.strictObject({ id: z.string(), title: z.string(), createdAt: z.string() })),
  }),
  unreadNotifications: count,
});
export type CustomerDashboard = z.infer<typeof customerDashboardSchema>;

export const salesSchema = z.strictObject({ currency: z.string(), amountCents: z.number().int(), count });

export const dealerDashboardSchema = z.strictObject({
  role: z.literal("dealer"),
  /** Tuning requests addressed to the dealer that are not final, per state (states with none are left out). */
  queue: z.array(z.strictObject({ state: z.enum(TUNING_REQUEST_STATES), count })),
  /** Of those, the late ones: paid or in progress and past their due date (`isLate`). */
  late: count,
  /** Paid orders of the dealer's since the start of this month (UTC), per currency. */
  sales: z.strictObject({ since: z.string(), byCurrency: z.array(salesSchema) }),
  managedVehicles: count,
  tunesPublished: count,
});
export type DealerDashboard = z.infer<typeof dealerDashboardSchema>;

export const adminDashboardSchema = z.strictObject({
  role: z.literal("admin"),
  /** Flash sessions that ended failed since the start of today (UTC). */
  failedFlashesToday: count,
  pendingDealerApplications: count,
  /** Vehicle onboarding (support) requests still new or being investigated. */
  pendingOnboardingRequests: count,
  failedJobs: count,
  /** Accounts created since the start of today (UTC), and in the last 7 days; the newest few of those. */
  signUps: z.strictObject({
    today: count,
    last7Days: count,
    recent: z.array(
      z.strictObject({
        uid: z.string(),
        email: z.string().nullable(),
        displayName: z.string().nullable(),
        role: z.enum(["customer", "dealer", "admin"]),
        createdAt: z.string(),
      }),
    ),
  }),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

export const dashboardSchema = z.discriminatedUnion("role", [
  customerDashboardSchema,
  dealerDashboardSchema,
  adminDashboardSchema,
]);
export type Dashboard = z.infer<typeof dashboardSchema>;

/** How many items the lists in the customer's figures hold. */
export const DASHBOARD_LIST_SIZE = 5;
