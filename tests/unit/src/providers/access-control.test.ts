import { describe, expect, it } from "vitest";
import type { Role } from "../../../../contracts/account";
import { canAccess, createAccessControlProvider } from "../../../../src/providers/access-control";
import { flattenRoutes, guardOf, menuParents, registerResources, registry } from "../../../../src/resources";

// The app's entry registers the routes before it renders; so does this test.
registerResources(registry, menuParents);

type Caller = Role | null;
const callers: Caller[] = [null, "customer", "dealer", "admin"];

/** Who may open a route of each guard: written out by hand, not derived from the code under test. */
const allowed: Record<string, Caller[]> = {
  public: [null, "customer", "dealer", "admin"],
  auth: ["customer", "dealer", "admin"],
  dealer: ["dealer", "admin"],
  admin: ["admin"],
};

/** Spec section 2, route by route. */
const specGuards: Record<string, string> = {
  "/": "public",
  "/faqs": "public",
  "/login": "public",
  "/about-us": "public",
  "/contact-us": "public",
  "/legal/terms": "public",
  "/legal/privacy": "public",
  "/demo-request": "public",
  "/download-app": "public",
  "/dealer-account-request": "public",
  "/redirect-app": "public",
  "/create-account": "public",
  "/confirm-account": "public",
  "/forgot-password": "public",
  "/mail-to-redirect": "public",
  "/handle-email-action": "public",
  "/create-email-account": "public",
  "/docs/:slug": "public",
  "/profile": "auth",
  "/my-tunes": "auth",
  "/dashboard": "auth",
  "/notifications": "auth",
  "/my-devices": "auth",
  "/my-devices/:id": "auth",
  "/managed-dealers": "public",
  "/admin/flashing-overview": "auth",
  "/tuning-tools/tune-viewer": "auth",
  "/tuning-tools/data-logs": "auth",
  "/tuning-tools/data-logs/:id": "auth",
  "/tuning-requests": "dealer",
  "/managed-devices": "dealer",
  "/managed-devices/:deviceId": "dealer",
  "/admin/app-info": "admin",
  "/admin/users": "admin",
  "/admin/users/:userId": "admin",
  "/admin/user-devices": "admin",
  "/admin/obd-functions": "admin",
  "/admin/pid-templates": "admin",
  "/admin/firmware-support": "admin",
  "/admin/server-management": "admin",
  "/admin/tune-file-patches": "admin",
  "/admin/onboarding-vehicles": "admin",
  "/admin/computed-descriptors": "admin",
  // Not in the spec's table: the review queue of dealers' profile change requests.
  "/admin/profile-change-requests": "admin",
  "/admin/format-requests": "admin",
  // Not in the spec's table: the page a data-log share link opens, signed in or not.
  "/shared/logs/:token": "public",
  // Not in the spec's table: the admins' inbox of contact and demo requests from the public site.
  "/admin/enquiries": "admin",
  "/admin/enquiries/demo": "admin",
  // Not in the spec's table: the admin catalogue's drawers (show/create/edit over their lists) and sibling tabs.
  "/admin/firmware-support/show/:id": "admin",
  "/admin/firmware-support/create": "admin",
  "/admin/firmware-support/edit/:id": "admin",
  "/admin/firmware-support/matrix": "admin",
  "/admin/firmware-support/vehicles": "admin",
  "/admin/firmware-support/vehicles/create": "admin",
  "/admin/firmware-support/vehicles/edit/:id": "admin",
  "/admin/firmware-support/passwords": "admin",
  "/admin/firmware-support/passwords/create": "admin",
  "/admin/obd-functions/create": "admin",
  "/admin/obd-functions/edit/:id": "admin",
  "/admin/pid-templates/create": "admin",
  "/admin/pid-templates/edit/:id": "admin",
  "/admin/pid-templates/descriptors": "admin",
  "/admin/pid-templates/descriptors/create": "admin",
  "/admin/pid-templates/descriptors/edit/:id": "admin",
  "/admin/computed-descriptors/create": "admin",
  "/admin/computed-descriptors/edit/:id": "admin",
  "/admin/onboarding-vehicles/show/:id": "admin",
  // Not in the spec's table: tune-file drawers over their lists; the server decides who may upload or publish.
  "/my-tunes/show/:id": "auth",
  "/my-tunes/create": "auth",
  // Not in the spec's table: a signed-in user's own support requests, with their drawers.
  "/vehicle-support": "auth",
  "/vehicle-support/show/:id": "auth",
  "/vehicle-support/create": "auth",
  "/admin/tune-file-patches/show/:id": "admin",
  "/admin/tune-file-patches/create": "admin",
  "/admin/tune-file-patches/edit/:id": "admin",
  // Not in the spec's table: paying an order, and the sandbox's payout onboarding for dealers.
  "/checkout/:orderId": "auth",
  "/payouts/onboarding": "dealer",
  // Not in the spec's table: a ticket opens as a drawer over the dealer's queue.
  "/tuning-requests/show/:id": "dealer",
  // Not in the spec's table: a dealer's page, open to visitors as the directory is.
  "/managed-dealers/:id": "public",
};

/** Spec section 2's layouts: "no layout" routes, the docs layout, the rest landing or portal. */
const specLayouts: Record<string, string> = {
  "/redirect-app": "none",
  "/create-account": "none",
  "/confirm-account": "none",
  "/forgot-password": "none",
  "/mail-to-redirect": "none",
  "/handle-email-action": "none",
  "/create-email-account": "none",
  "/docs/:slug": "docs",
  "/tuning-tools/data-logs": "none",
  "/tuning-tools/data-logs/:id": "none",
  "/managed-devices": "none",
  "/shared/logs/:token": "none",
  // Listed with the portal routes, though without an auth guard.
  "/managed-dealers": "portal",
  "/managed-dealers/:id": "portal",
};

describe("route registry", () => {
  const routes = flattenRoutes();

  it("declares every route of the spec exactly once", () => {
    const paths = routes.map((route) => route.path);
    expect([...paths].sort()).toEqual(Object.keys(specGuards).sort());
  });

  it.each(Object.entries(specGuards))("%s has the %s guard", (path, guard) => {
    expect(routes.find((route) => route.path === path)?.guard).toBe(guard);
  });

  it.each(routes.map((route) => [route.path, route.layout] as const))("%s uses the %s layout", (path, layout) => {
    const expected = specLayouts[path] ?? (specGuards[path] === "public" ? "landing" : "portal");
    expect(layout).toBe(expected);
  });

  it("does not keep /profile, a checkout or the payout onboarding alive when switching away, and keeps the others", () => {
    // A payment page kept alive would show a stale order; the next visit must read it again.
    expect(routes.filter((route) => !route.keepAlive).map((route) => route.path)).toEqual([
      "/profile",
      "/checkout/:orderId",
      "/payouts/onboarding",
    ]);
  });
});

describe("access rules", () => {
  const routes = flattenRoutes();
  const cases = routes.flatMap((route) =>
    callers.map((caller) => [route.path, caller ?? "signed out", route.guard, caller] as const),
  );

  it.each(cases)("%s for %s", (_path, _label, guard, caller) => {
    expect(canAccess(caller, guard).can).toBe(allowed[guard].includes(caller));
  });

  it("gives a reason whenever it refuses", () => {
    expect(canAccess(null, "auth")).toEqual({ can: false, reason: "Sign in to open this page" });
    expect(canAccess("customer", "dealer")).toEqual({ can: false, reason: "This page is for dealers" });
    expect(canAccess("dealer", "admin")).toEqual({ can: false, reason: "This page is for administrators" });
  });

  it("throws an error naming an unknown guard", () => {
    expect(() => canAccess("admin", "superuser")).toThrow('Unknown route guard "superuser"');
  });

  it("answers Refine's can() from the registry without a network call", async () => {
    let role: Role | null = "dealer";
    const provider = createAccessControlProvider(
      async () => role,
      (name) => guardOf(name, registry),
    );
    expect(await provider.can({ resource: "tuning-requests", action: "list" })).toEqual({ can: true });
    expect((await provider.can({ resource: "users", action: "list" })).can).toBe(false);
    expect((await provider.can({ resource: "no-such-resource", action: "list" })).can).toBe(false);
    role = "admin";
    expect(await provider.can({ resource: "users", action: "list" })).toEqual({ can: true });
  });

  it("guards each view of one resource by its own menu entry (the vehicles' owner, dealer and admin views)", async () => {
    let role: Role | null = "customer";
    const provider = createAccessControlProvider(
      async () => role,
      (name) => guardOf(name, registry),
    );
    const entry = (view?: string) => ({
      resource: "user-vehicles",
      action: "list",
      params: { resource: { name: "user-vehicles", identifier: view ? `user-vehicles/${view}` : "user-vehicles" } },
    });
    expect(await provider.can(entry())).toEqual({ can: true });
    expect((await provider.can(entry("managed"))).can).toBe(false);
    expect((await provider.can(entry("admin"))).can).toBe(false);
    role = "dealer";
    expect(await provider.can(entry("managed"))).toEqual({ can: true });
    expect((await provider.can(entry("admin"))).can).toBe(false);
  });
});
