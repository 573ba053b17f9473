import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const tuningRequests: ResourceDefinition = {
  name: "tuning-requests",
  guard: "dealer",
  layout: "portal",
  ...drawerRoutes(
    "/tuning-requests",
    lazyPage(() => import("./list"), "TuningRequestsList"),
    ["show"],
  ),
  meta: { label: "Tuning requests", icon: menuIcon("InboxOutlined"), menu: "dealer" },
};
