import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const obdFunctions: ResourceDefinition = {
  name: "obd-functions",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/obd-functions",
    lazyPage(() => import("./list"), "ObdFunctionsList"),
    ["create", "edit"],
  ),
  meta: {
    label: "OBD functions",
    icon: menuIcon("ApiOutlined"),
    menu: "admin",
    apiPath: apiPaths["obd-functions"].list,
  },
};
