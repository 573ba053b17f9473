import { describe, expect, it } from "vitest";
import { flattenRoutes, menuParents, registerResources, registry } from "../../../../src/resources";
import { WALKED_ROUTES } from "../../../e2e/route-walk";

// The app's entry registers the routes before it renders; so does this test.
registerResources(registry, menuParents);

describe("the layout walk's route table (tests/e2e/route-walk.ts)", () => {
  const appRoutes = new Map(flattenRoutes().map((route) => [route.path, route.guard]));

  it("walks every route of the app, with the app's guard", () => {
    const walked = new Map(WALKED_ROUTES.map((route) => [route.path, route.guard]));
    const missing = [...appRoutes.keys()].filter((path) => !walked.has(path));
    expect(missing, "routes of the app the walk does not open: add them to tests/e2e/route-walk.ts").toEqual([]);
    const wrongGuard = [...walked]
      .filter(([path, guard]) => appRoutes.has(path) && appRoutes.get(path) !== guard)
      .map(([path, guard]) => `${path}: walked as ${guard}, guarded ${appRoutes.get(path)}`);
    expect(wrongGuard).toEqual([]);
  });

  it("names only routes the app has, and a value for every parameter", () => {
    expect(WALKED_ROUTES.filter((route) => !appRoutes.has(route.path)).map((route) => route.path)).toEqual([]);
    const unnamed = WALKED_ROUTES.flatMap((route) =>
      [...route.path.matchAll(/:(\w+)/g)]
        .map((match) => match[1])
        .filter((param) => !route.params?.[param])
        .map((param) => `${route.path} :${param}`),
    );
    expect(unnamed).toEqual([]);
  });
});
