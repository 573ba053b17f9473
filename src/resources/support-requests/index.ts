import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/**
 * Support requests: one resource, "support-requests", in two views on routes of their own: a
 * signed-in user's own requests (/vehicle-support) and the admins' queue of every request
 * (/admin/onboarding-vehicles). Their data hooks name the same resource, so a change on one view
 * refreshes the other.
 */
export const supportRequests: ResourceDefinition = {
  name: "support-requests",
  guard: "auth",
  layout: "portal",
  ...drawerRoutes(
    "/vehicle-support",
    lazyPage(() => import("./list"), "SupportRequestsList"),
    ["show", "create"],
  ),
  meta: {
    label: "Vehicle support",
    icon: menuIcon("QuestionCircleOutlined"),
    menu: "portal",
    apiPath: apiRoutes.supportRequests.mine(),
  },
};

/** The admins' view: every request, worked from new to supported or rejected. */
export const adminSupportRequests: ResourceDefinition = {
  name: "support-requests",
  view: "admin",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/onboarding-vehicles",
    lazyPage(() => import("./admin-list"), "AdminSupportRequestsList"),
    ["show"],
  ),
  meta: {
    label: "Onboarding vehicles",
    icon: menuIcon("CarryOutOutlined"),
    menu: "admin",
    apiPath: apiPaths["support-requests"].list,
  },
};
