import { describe, expect, it } from "vitest";
import { apiPathOf } from "../../../../contracts/api-paths";
import { flattenRoutes, menuParents, refineResources, registerResources, registry } from "../../../../src/resources";

// The app's entry registers the routes and menu groups before it renders; so does this test.
registerResources(registry, menuParents);

describe("one name per resource", () => {
  const routes = flattenRoutes(registry);

  it("names the vehicles' views, owner's, dealer's and admins', after the API's one collection", () => {
    const vehicleViews = [
      "/my-devices",
      "/my-devices/:id",
      "/managed-devices",
      "/managed-devices/:deviceId",
      "/admin/user-devices",
    ];
    expect(vehicleViews.map((path) => routes.find((route) => route.path === path)?.resource)).toEqual(
      vehicleViews.map(() => "user-vehicles"),
    );
    expect(apiPathOf("user-vehicles")?.list).toBe("user-vehicles");
  });

  it("gives every view its own Refine identifier, so each keeps its menu entry", () => {
    const entries = refineResources(registry).filter((resource) => resource.name === "user-vehicles");
    expect(entries.map((resource) => [resource.identifier, resource.meta?.guard, resource.meta?.label])).toEqual([
      ["user-vehicles", "auth", "My vehicles"],
      ["user-vehicles/managed", "dealer", "Managed vehicles"],
      ["user-vehicles/admin", "admin", "User vehicles"],
    ]);
  });
});
