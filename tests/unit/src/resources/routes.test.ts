import { describe, expect, it } from "vitest";
import {
  flattenRoutes,
  keepAliveFor,
  keepAliveKey,
  menuParents,
  notFoundLayout,
  registerResources,
  registry,
  routeFor,
} from "../../../../src/resources";
import type { ResourceDefinition } from "../../../../src/routing/types";

// The app's entry registers the routes before it renders; so does this test.
registerResources(registry, menuParents);

describe("route lookups of the shell", () => {
  it("shows an unknown path in the layout of its first path segment", () => {
    expect(notFoundLayout("/admin/nothing-here")).toBe("portal");
    expect(notFoundLayout("/my-devices/1/photos")).toBe("portal");
    expect(notFoundLayout("/tuning-tools/nothing")).toBe("portal");
    expect(notFoundLayout("/docs/a/b")).toBe("docs");
    expect(notFoundLayout("/legal/cookies")).toBe("landing");
    expect(notFoundLayout("/no/such/page")).toBe("landing");
    expect(notFoundLayout("/")).toBe("landing");
  });

  it("finds the route of a path, params included", () => {
    expect(routeFor("/admin/users/abc")?.path).toBe("/admin/users/:userId");
    expect(routeFor("/nowhere")).toBeUndefined();
  });

  it("keeps known pages alive except /profile, and unknown paths not at all", () => {
    expect(keepAliveFor("/my-devices/42")).toBe(true);
    expect(keepAliveFor("/profile")).toBe(false);
    expect(keepAliveFor("/nowhere")).toBe(false);
  });

  it("validates ids where a route asks for it", () => {
    const users = routeFor("/admin/users/x")!.page;
    expect(users.validate?.({ userId: "kX3v9QeT2bMz8LwP4rYa7cN1dHs0" })).toBe(true);
    expect(users.validate?.({ userId: "x".repeat(129) })).toBe(false);
    const log = routeFor("/tuning-tools/data-logs/x")!.page;
    expect(log.validate?.({ id: "not-a-uuid" })).toBe(false);
  });
});

describe("keep-alive keys", () => {
  const List = () => null;
  const Show = () => null;
  const routes = flattenRoutes([
    {
      name: "gadgets",
      guard: "auth",
      layout: "portal",
      list: { path: "/gadgets", component: List },
      show: { path: "/gadgets/show/:id", component: List },
      edit: { path: "/gadgets/edit/:id", component: List },
      meta: { label: "Gadgets" },
    },
    {
      name: "widgets",
      guard: "auth",
      layout: "portal",
      list: { path: "/widgets", component: List },
      show: { path: "/widgets/:id", component: Show },
      meta: { label: "Widgets" },
    },
  ] satisfies ResourceDefinition[]);

  it("keeps a list and the drawer routes over it as one page", () => {
    expect(keepAliveKey("/gadgets", routes)).toBe("/gadgets");
    expect(keepAliveKey("/gadgets/show/1", routes)).toBe("/gadgets");
    expect(keepAliveKey("/gadgets/edit/1", routes)).toBe("/gadgets");
  });

  it("keeps a page of its own under its pathname", () => {
    expect(keepAliveKey("/widgets/7", routes)).toBe("/widgets/7");
    expect(keepAliveKey("/nowhere", routes)).toBe("/nowhere");
  });
});
