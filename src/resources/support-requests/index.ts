import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** A signed-in user's own support requests; the admins work the same requests at /admin/onboarding-vehicles. */
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
    apiPath: apiPaths["support-requests"].list,
  },
};
