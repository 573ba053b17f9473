// @vitest-environment jsdom
import { type ParseResponse, ResourceContext } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { matchRoute, useRouteParse } from "../../../../src/routing/route-parse";

const resources = [
  {
    name: "data-logs",
    list: "/tuning-tools/data-logs",
    show: "/tuning-tools/data-logs/:id",
    edit: "/tuning-tools/data-logs/edit/:id",
  },
  { name: "vehicles", list: "/my-vehicles", show: "/my-vehicles/:id", create: "/my-vehicles/create" },
  {
    name: "firmware",
    list: "/admin/firmware-support",
    edit: "/admin/firmware-support/edit/:id",
    meta: { parent: "catalogue" },
  },
];

/** Both parses at `url`, inside a route of `pattern` (or none: the layout and the menu parse outside any route). */
function parsesAt(url: string, pattern?: string): { ours: ParseResponse; refines: ParseResponse } {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[url]}>
      <ResourceContext.Provider value={{ resources }}>
        {pattern ? (
          <Routes>
            <Route path={pattern} element={children} />
          </Routes>
        ) : (
          children
        )}
      </ResourceContext.Provider>
    </MemoryRouter>
  );
  const { result } = renderHook(() => ({ ours: useRouteParse()(), refines: routerProvider.parse!()() }), { wrapper });
  return result.current;
}

describe("the portal's route parse", () => {
  const cases: Array<[string, string | undefined]> = [
    ["/tuning-tools/data-logs/0b7a6d2e-1d0e-4f7a-9b8e-3c2d1e0f9a8b?panes=rpm,boost;afr", "/tuning-tools/data-logs/:id"],
    ["/tuning-tools/data-logs/edit/a%20b", "/tuning-tools/data-logs/edit/:id"],
    [
      "/tuning-tools/data-logs?currentPage=2&pageSize=20&sorters[0][field]=createdAt&sorters[0][order]=desc&filters[0][field]=vehicleId&filters[0][operator]=eq&filters[0][value]=v1",
      "/tuning-tools/data-logs",
    ],
    ["/my-vehicles?currentPage=02&to=%2Fmy-vehicles%2Fcreate", undefined],
    ["/my-vehicles/create", "/my-vehicles/create"],
    ["/my-vehicles/7", undefined],
    ["/admin/firmware-support/edit/fw-1", undefined],
    ["/nowhere/at/all?x=1", undefined],
  ];
  for (const [url, pattern] of cases) {
    it(`answers as Refine's react-router binding does at ${url}${pattern ? "" : " (outside a route)"}`, () => {
      const { ours, refines } = parsesAt(url, pattern);
      expect(ours).toEqual(refines);
    });
  }

  it("matches a path to its resource once, whichever hook asks", () => {
    const first = matchRoute("/my-vehicles/7", resources);
    expect(matchRoute("/my-vehicles/7", resources)).toBe(first);
    expect(first.resource?.name).toBe("vehicles");
    expect(first.action).toBe("show");
    // Another list of resources (a new Refine) is matched afresh.
    expect(matchRoute("/my-vehicles/7", [...resources])).not.toBe(first);
  });
});
