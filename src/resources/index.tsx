import { CrownOutlined, ShopOutlined } from "@ant-design/icons";
import type { ResourceProps } from "@refinedev/core";
import { type ReactNode, createElement } from "react";
import { Outlet, Route } from "react-router";
import { useForcedColourMode } from "../components/colour-mode-switch";
import { RouteGuard } from "../components/route-guard";
import { NotFoundPage } from "../pages/errors/not-found";
import { pages } from "../pages";
import { appInfo } from "./app-info";
import { computedDescriptors } from "./computed-descriptors";
import { dataLogs } from "./data-logs";
import { firmwareSupport } from "./firmware-support";
import { flashingOverview } from "./flashing-overview";
import { managedDealers } from "./managed-dealers";
import { managedDevices } from "./managed-devices";
import { myDevices } from "./my-devices";
import { myTunes } from "./my-tunes";
import { notifications } from "./notifications";
import { obdFunctions } from "./obd-functions";
import { onboardingVehicles } from "./onboarding-vehicles";
import { pidTemplates } from "./pid-templates";
import { serverManagement } from "./server-management";
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
  dataLogs,
  notifications,
  managedDealers,
  flashingOverview,
  tuningRequests,
  managedDevices,
  appInfo,
  users,
  userDevices,
  firmwareSupport,
  obdFunctions,
  pidTemplates,
  computedDescriptors,
  tuneFilePatches,
  onboardingVehicles,
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

/** Applies the colour mode a page forces through its route metadata while it is shown. */
function ForcedColourMode({ mode }: { mode: FlatRoute["colourMode"] }) {
  useForcedColourMode(mode);
  return null;
}

const layoutOrder: LayoutName[] = ["landing", "portal", "docs", "none"];

/** The route tree: one branch per layout, every route wrapped in its guard; unknown paths end in a 404. */
export function renderRoutes(layouts: Record<LayoutName, (children: ReactNode) => ReactNode>): ReactNode {
  const routes = flattenRoutes();
  return layoutOrder.map((layout) => (
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
                {createElement(route.page.component)}
              </RouteGuard>
            }
          />
        ))}
      {layout === "landing" && <Route path="*" element={<NotFoundPage />} />}
    </Route>
  ));
}
