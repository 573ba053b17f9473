import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** Reached from the firmware-support tabs; the public site reads the supported list from the same API. */
export const supportedVehicles: ResourceDefinition = {
  name: "supported-vehicles",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/firmware-support/vehicles",
    lazyPage(() => import("./list"), "SupportedVehiclesList"),
    ["create", "edit"],
  ),
  meta: { label: "Supported vehicles", icon: menuIcon("CarOutlined"), apiPath: apiPaths["supported-vehicles"].list },
};
