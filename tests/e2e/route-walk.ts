/**
 * Every route of the app with its guard, for the layout walk (tests/e2e/layout.spec.ts): the browser
 * tests cannot import the registry (its pages import stylesheets), so the table is written here and
 * tests/unit/src/resources/route-walk.test.ts checks it against `flattenRoutes()`: a route added to the app
 * and not here fails that test, and so does a guard that differs.
 *
 * A route with parameters names where the walk finds a real value: a record of the demo data read
 * through the API as the walking role (`list`, then the record's `key`), or a fixed value.
 */
export type Walker = "visitor" | "customer" | "dealer" | "admin";
export type RouteGuard = "public" | "auth" | "dealer" | "admin";

export type ParamSource =
  | { list: string; key?: "id" | "uid"; as?: Walker }
  | { fixed: string }
  | { shareOfFirstLog: true }
  | { firstOrder: true };

export interface WalkedRoute {
  path: string;
  guard: RouteGuard;
  params?: Record<string, ParamSource>;
}

/** Who opens a route of each guard in the walk: every role that may. Public pages are the visitor's. */
export const WALKERS: Record<RouteGuard, Walker[]> = {
  public: ["visitor"],
  auth: ["customer", "dealer", "admin"],
  dealer: ["dealer", "admin"],
  admin: ["admin"],
};

const firstOf = (list: string, key: "id" | "uid" = "id", as?: Walker): ParamSource => ({ list, key, as });

export const WALKED_ROUTES: WalkedRoute[] = [
  { path: "/", guard: "public" },
  { path: "/about-us", guard: "public" },
  { path: "/contact-us", guard: "public" },
  { path: "/faqs", guard: "public" },
  { path: "/legal/terms", guard: "public" },
  { path: "/legal/privacy", guard: "public" },
  { path: "/demo-request", guard: "public" },
  { path: "/download-app", guard: "public" },
  { path: "/dealer-account-request", guard: "public" },
  { path: "/login", guard: "public" },
  { path: "/create-account", guard: "public" },
  { path: "/create-email-account", guard: "public" },
  { path: "/confirm-account", guard: "public" },
  { path: "/forgot-password", guard: "public" },
  { path: "/handle-email-action", guard: "public" },
  { path: "/mail-to-redirect", guard: "public" },
  { path: "/redirect-app", guard: "public" },
  { path: "/docs/:slug", guard: "public", params: { slug: { fixed: "getting-started" } } },
  { path: "/shared/logs/:token", guard: "public", params: { token: { shareOfFirstLog: true } } },
  { path: "/managed-dealers", guard: "public" },
  { path: "/managed-dealers/:id", guard: "public", params: { id: firstOf("dealers", "id", "customer") } },

  { path: "/dashboard", guard: "auth" },
  { path: "/profile", guard: "auth" },
  { path: "/notifications", guard: "auth" },
  { path: "/my-devices", guard: "auth" },
  { path: "/my-devices/:id", guard: "auth", params: { id: firstOf("user-vehicles", "id", "customer") } },
  { path: "/my-tunes", guard: "auth" },
  { path: "/my-tunes/create", guard: "auth" },
  { path: "/my-tunes/show/:id", guard: "auth", params: { id: firstOf("tune-files", "id", "dealer") } },
  { path: "/vehicle-support", guard: "auth" },
  { path: "/vehicle-support/create", guard: "auth" },
  {
    path: "/vehicle-support/show/:id",
    guard: "auth",
    params: { id: firstOf("user-vehicles/support-request/mine", "id", "customer") },
  },
  { path: "/tuning-tools/tune-viewer", guard: "auth" },
  { path: "/tuning-tools/data-logs", guard: "auth" },
  { path: "/tuning-tools/data-logs/:id", guard: "auth", params: { id: firstOf("data-logs", "id", "customer") } },
  { path: "/admin/flashing-overview", guard: "auth" },
  { path: "/checkout/:orderId", guard: "auth", params: { orderId: { firstOrder: true } } },

  { path: "/tuning-requests", guard: "dealer" },
  { path: "/tuning-requests/show/:id", guard: "dealer", params: { id: firstOf("tuning-requests", "id", "dealer") } },
  { path: "/managed-devices", guard: "dealer" },
  {
    path: "/managed-devices/:deviceId",
    guard: "dealer",
    params: { deviceId: firstOf("user-vehicles/managed", "id", "dealer") },
  },
  { path: "/payouts/onboarding", guard: "dealer" },

  { path: "/admin/app-info", guard: "admin" },
  { path: "/admin/server-management", guard: "admin" },
  { path: "/admin/users", guard: "admin" },
  { path: "/admin/users/:userId", guard: "admin", params: { userId: firstOf("users", "uid") } },
  { path: "/admin/user-devices", guard: "admin" },
  { path: "/admin/profile-change-requests", guard: "admin" },
  { path: "/admin/enquiries", guard: "admin" },
  { path: "/admin/enquiries/demo", guard: "admin" },
  { path: "/admin/format-requests", guard: "admin" },
  { path: "/admin/firmware-support", guard: "admin" },
  { path: "/admin/firmware-support/create", guard: "admin" },
  { path: "/admin/firmware-support/show/:id", guard: "admin", params: { id: firstOf("firmware-support") } },
  { path: "/admin/firmware-support/edit/:id", guard: "admin", params: { id: firstOf("firmware-support") } },
  { path: "/admin/firmware-support/matrix", guard: "admin" },
  { path: "/admin/firmware-support/passwords", guard: "admin" },
  { path: "/admin/firmware-support/passwords/create", guard: "admin" },
  { path: "/admin/firmware-support/vehicles", guard: "admin" },
  { path: "/admin/firmware-support/vehicles/create", guard: "admin" },
  {
    path: "/admin/firmware-support/vehicles/edit/:id",
    guard: "admin",
    params: { id: firstOf("firmware-support/supported-vehicle") },
  },
  { path: "/admin/obd-functions", guard: "admin" },
  { path: "/admin/obd-functions/create", guard: "admin" },
  { path: "/admin/obd-functions/edit/:id", guard: "admin", params: { id: firstOf("firmware-support/obd-function") } },
  { path: "/admin/pid-templates", guard: "admin" },
  { path: "/admin/pid-templates/create", guard: "admin" },
  { path: "/admin/pid-templates/edit/:id", guard: "admin", params: { id: firstOf("firmware-support/pid-templates") } },
  { path: "/admin/pid-templates/descriptors", guard: "admin" },
  { path: "/admin/pid-templates/descriptors/create", guard: "admin" },
  {
    path: "/admin/pid-templates/descriptors/edit/:id",
    guard: "admin",
    params: { id: firstOf("firmware-support/pid-descriptors") },
  },
  { path: "/admin/computed-descriptors", guard: "admin" },
  { path: "/admin/computed-descriptors/create", guard: "admin" },
  {
    path: "/admin/computed-descriptors/edit/:id",
    guard: "admin",
    params: { id: firstOf("firmware-support/computed-descriptors") },
  },
  { path: "/admin/tune-file-patches", guard: "admin" },
  { path: "/admin/tune-file-patches/create", guard: "admin" },
  { path: "/admin/tune-file-patches/show/:id", guard: "admin", params: { id: firstOf("tune-file-patches") } },
  { path: "/admin/tune-file-patches/edit/:id", guard: "admin", params: { id: firstOf("tune-file-patches") } },
  { path: "/admin/onboarding-vehicles", guard: "admin" },
  {
    path: "/admin/onboarding-vehicles/show/:id",
    guard: "admin",
    params: { id: firstOf("user-vehicles/support-request") },
  },
];
