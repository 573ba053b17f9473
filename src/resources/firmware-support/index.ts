import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const firmwareSupport: ResourceDefinition = {
  name: "firmware-support",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/firmware-support",
    lazyPage(() => import("./list"), "FirmwareSupportList"),
  ),
  meta: {
    label: "Firmware support",
    icon: menuIcon("DatabaseOutlined"),
    menu: "admin",
    apiPath: apiPaths["firmware-support"].list,
  },
};
