import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const pidTemplates: ResourceDefinition = {
  name: "pid-templates",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/pid-templates",
    lazyPage(() => import("./list"), "PidTemplatesList"),
    ["create", "edit"],
  ),
  meta: {
    label: "PID templates",
    icon: menuIcon("OrderedListOutlined"),
    menu: "admin",
    apiPath: apiPaths["pid-templates"].list,
  },
};
