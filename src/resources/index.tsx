import { CrownOutlined, ShopOutlined } from "@ant-design/icons";
import type { ResourceProps } from "@refinedev/core";
import { Spin } from "antd";
import { type ReactNode, Suspense, createElement } from "react";
import { Outlet, Route, matchPath, useLocation, useParams } from "react-router";
import { useForcedColourMode } from "../components/colour-mode-switch";
import { ErrorPage } from "../components/error-page";
import { PageRendered } from "../components/keep-alive-routes";
import { RouteGuard } from "../components/route-guard";
import { type PreloadPriority, routePreloads } from "../lib/preload";
import { NotFoundPage } from "../pages/errors/not-found";
import { pages } from "../pages";
import { appInfo } from "./app-info";
import { computedDescriptors } from "./computed-descriptors";
import { dataLogs, sharedDataLog } from "./data-logs";
import { firmwareMatrix } from "./firmware-matrix";
import { firmwareSupport } from "./firmware-support";
import { flashingOverview } from "./flashing-overview";
import { managedDealers } from "./managed-dealers";
import { managedDevices } from "./managed-devices";
import { myDevices } from "./my-devices";
import { myTunes } from "./my-tunes";
import { notifications } from "./notifications";
import { obdFunctions } from "./obd-functions";
import { onboardingVehicles } from "./onboarding-vehicles";
import { contactRequests } from "./contact-requests";
import { demoRequests } from "./demo-requests";
import { passwordStorage } from "./password-storage";
import { pidDescriptors } from "./pid-descriptors";
import { pidTemplates } from "./pid-templates";
import { serverManagement } from "./server-management";
import { supportRequests } from "./support-requests";
import { supportedVehicles } from "./supported-vehicles";
import { tuneFilePatches } from "./tune-file-patches";
import { tuningRequests } from "./tuning-requests";
import type { LayoutName, MenuGroup, ResourceDefinition, RoutePage } from "./types";
import { userDevices } from "./user-devices";
import { users } from "./users";

/** Every route of the app, declared once. Order is menu order. */
export const registry: ResourceDefinition[] = [
  ...pages,
  myDevices,
  myTunes,
  supportRequests,
  dataLogs,
  sharedDataLog,
  notifications,
  managedDealers,
  flashingOverview,
  tuningRequests,
  managedDevices,
  appInfo,
  users,
  userDevices,
  firmwareSupport,
  firmwareMatrix,
  supportedVehicles,
  passwordStorage,
  obdFunctions,
  pidTemplates,
  pidDescriptors,
  computedDescriptors,
  tuneFilePatches,
  onboardingVehicles,
  contactRequests,
  demoRequests,
  serverManagement,
];

const menuParents: Record<Exclude<MenuGroup, "portal">, ResourceProps> = {
  dealer: { name: "dealer", meta: { label: "Dealer", icon: createElement(ShopOutlined) } },
  admin: { name: "admin", meta: { label: "Administration", icon: createElement(CrownOutlined) } },
};

/** Refine's resources: menu entries for pages with a menu group, hidden entries for the rest (breadcrumbs, titles). */
export function refineResources(definitions: ResourceDefinition[] = registry): ResourceProps[] {
  const resources: ResourceProps[] = Object.values(menuParents);
  for (const definition of definitions) {
    const { menu, label, icon, apiPath } = definition.meta;
    resources.push({
      name: definition.name,
      list: definition.list?.path,
      show: definition.show?.path,
      create: definition.create?.path,
      edit: definition.edit?.path,
      meta: {
        label,
        icon,
        apiPath,
        guard: definition.guard,
        hide: !menu,
        ...(menu && menu !== "portal" && { parent: menu }),
      },
    });
  }
  return resources;
}

/** The guard each resource name needs, for the access-control provider. */
export function guardOf(name: string, definitions: ResourceDefinition[] = registry): string | undefined {
  if (name in menuParents) return name === "admin" ? "admin" : "dealer";
  return definitions.find((definition) => definition.name === name)?.guard;
}

export interface FlatRoute {
  path: string;
  layout: LayoutName;
  guard: string;
  resource: string;
  page: RoutePage;
  keepAlive: boolean;
  colourMode?: ResourceDefinition["meta"]["colourMode"];
}

export function flattenRoutes(definitions: ResourceDefinition[] = registry): FlatRoute[] {
  return definitions.flatMap((definition) =>
    (["list", "show", "create", "edit"] as const)
      .map((action) => definition[action])
      .filter((page): page is RoutePage => Boolean(page))
      .map((page) => ({
        path: page.path,
        layout: page.layout ?? definition.layout,
        guard: definition.guard,
        resource: definition.name,
        page,
        keepAlive: definition.meta.keepAlive !== false,
        colourMode: definition.meta.colourMode,
      })),
  );
}

/** The route a pathname opens, if any. */
export function routeFor(pathname: string, routes: FlatRoute[] = flattenRoutes()): FlatRoute | undefined {
  return routes.find((route) => matchPath(route.path, pathname));
}

/**
 * The page a pathname shows, for keep-alive: the routes of one resource that render the same
 * component (a list and the drawers opened over it on routes of their own) are one page, kept
 * under the list's path, so opening a drawer does not keep a second copy of the list.
 */
export function keepAliveKey(pathname: string, routes: FlatRoute[] = flattenRoutes()): string {
  const route = routeFor(pathname, routes);
  if (!route) return pathname;
  const first = routes.find((candidate) => candidate.resource === route.resource && candidate.page.component === route.page.component);
  return first && !first.path.includes(":") ? first.path : pathname;
}

/** Whether the page at a pathname stays alive when switching away (unknown paths are not kept). */
export function keepAliveFor(pathname: string): boolean {
  return routeFor(pathname)?.keepAlive ?? false;
}

/** Fetches the code of the page a link leads to (at most 4 at once, src/lib/preload.ts). */
export function preloadRoute(pathname: string, priority: PreloadPriority): void {
  const route = routeFor(pathname);
  const preload = route?.page.component.preload;
  if (route && preload) void routePreloads.preload(route.path, preload, priority);
}

/**
 * The layout an unknown path is shown in: the layout of the known routes under its first path
 * segment ("/admin/nothing" → portal, "/docs/…" → docs), landing for the rest. Full-screen
 * routes ("none") give no chrome to show a 404 in, so they do not decide.
 */
export function notFoundLayout(pathname: string, routes: FlatRoute[] = flattenRoutes()): LayoutName {
  const segment = (path: string) => path.split("/")[1] ?? "";
  const first = segment(pathname);
  const match = routes.find((route) => route.layout !== "none" && route.path !== "/" && segment(route.path) === first);
  return match?.layout ?? "landing";
}

/** Applies the colour mode a page forces through its route metadata while it is on screen (a kept page off screen has no effects). */
function ForcedColourMode({ mode }: { mode: FlatRoute["colourMode"] }) {
  useForcedColourMode(mode);
  return null;
}

/** The page, or 404 "Page Not Found" when its params fail the route's validation. */
function ValidatedPage({ page }: { page: RoutePage }) {
  const params = useParams();
  if (page.validate && !page.validate(params)) {
    return <ErrorPage error={{ statusCode: 404, message: "Page Not Found", description: "This address does not name anything that can exist." }} />;
  }
  return createElement(page.component);
}

const pageLoading = <Spin size="large" style={{ display: "block", margin: "20vh auto" }} aria-label="Loading the page" />;

/** Unknown paths: a non-fatal 404 inside the layout the path belongs to. */
function UnknownPath({ layouts }: { layouts: Record<LayoutName, (children: ReactNode) => ReactNode> }) {
  const { pathname } = useLocation();
  return layouts[notFoundLayout(pathname)](
    <>
      <NotFoundPage />
      <PageRendered />
    </>,
  );
}

const layoutOrder: LayoutName[] = ["landing", "portal", "docs", "none"];

/**
 * The route tree: one branch per layout, every route wrapped in its guard, its page's code
 * loaded inside the layout (the layout stays while it loads); unknown paths end in a 404.
 */
export function renderRoutes(layouts: Record<LayoutName, (children: ReactNode) => ReactNode>): ReactNode {
  const routes = flattenRoutes();
  return [
    ...layoutOrder.map((layout) => (
      <Route key={layout} element={layouts[layout](<Outlet />)}>
        {routes
          .filter((route) => route.layout === layout)
          .map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={
                <RouteGuard guard={route.guard}>
                  <ForcedColourMode mode={route.colourMode} />
                  <Suspense fallback={pageLoading}>
                    <ValidatedPage page={route.page} />
                    <PageRendered />
                  </Suspense>
                </RouteGuard>
              }
            />
          ))}
      </Route>
    )),
    <Route key="*" path="*" element={<UnknownPath layouts={layouts} />} />,
  ];
}
