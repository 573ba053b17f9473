/**
 * The app and the server read every resource's path from one table (contracts/api-paths.ts): the
 * server registers its routes from it, so each path the app lists or opens is one the server
 * serves — except those of features the server does not have yet, named here so that the list
 * has to shrink as they arrive.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResource, apiPaths, apiRoutes } from "../../contracts/api-paths";
import { startTestApp, type TestApp } from "./support/harness";

/** Resources of the app whose server side is still to be built. */
const NOT_SERVED_YET: ReadonlySet<ApiResource> = new Set([]);

describe("the API path table", () => {
  let test: TestApp;
  let app: FastifyInstance;
  const served = (method: "GET" | "PUT" | "POST" | "PATCH" | "DELETE", url: string) =>
    app.hasRoute({ method, url: `/api/v1/${url}` });

  beforeAll(async () => {
    test = await startTestApp("pglite");
    app = test.app;
    await app.ready();
  });
  afterAll(async () => test?.close());

  const resources = Object.keys(apiPaths) as ApiResource[];

  it.each(resources.filter((name) => !NOT_SERVED_YET.has(name)))(
    "serves the list and the records of %s where the table says",
    (name) => {
      const { list, record } = apiPaths[name];
      expect(served("GET", list), `GET ${list}`).toBe(true);
      if (record !== list) expect(served("GET", `${record}/:id`) || served("PUT", record), `${record}`).toBe(true);
    },
  );

  /** Each builder called with its own parameter names, as the server registers it: `(id, logId)` → `:id`, `:logId`. */
  const patterns = Object.entries(apiRoutes).flatMap(([group, builders]) =>
    Object.entries(builders as Record<string, (...ids: string[]) => string>).map(([name, build]) => {
      const names =
        /^\(([^)]*)\)/
          .exec(build.toString())?.[1]
          .split(",")
          .map((param) => param.trim().split(":")[0].trim())
          .filter(Boolean) ?? [];
      return [`${group}.${name}`, build(...names.map((param) => `:${param}`))] as const;
    }),
  );

  it.each(patterns)("serves the path %s builds (%s)", (_name, pattern) => {
    const methods = (["GET", "POST", "PUT", "PATCH", "DELETE"] as const).filter((method) => served(method, pattern));
    expect(methods, pattern).not.toEqual([]);
  });

  it("names as not served yet only resources the server really does not serve", () => {
    const servedAfterAll = [...NOT_SERVED_YET].filter((name) => served("GET", apiPaths[name].list));
    expect(servedAfterAll, "served now: remove them from NOT_SERVED_YET").toEqual([]);
  });
});
