import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** Reached from the PID templates page, whose templates are built from these. */
export const pidDescriptors: ResourceDefinition = {
  name: "pid-descriptors",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/pid-templates/descriptors",
    lazyPage(() => import("./list"), "PidDescriptorsList"),
    ["create", "edit"],
  ),
  meta: { label: "PID descriptors", icon: menuIcon("NodeIndexOutlined"), apiPath: apiPaths["pid-descriptors"].list },
};
