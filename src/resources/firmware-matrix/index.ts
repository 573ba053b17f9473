import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** Reached from the firmware-support tabs, not the menu: "Firmware support" stays highlighted. */
export const firmwareMatrix: ResourceDefinition = {
  name: "firmware-matrix",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/firmware-support/matrix", component: lazyPage(() => import("./list"), "FirmwareMatrixList") },
  meta: {
    label: "Support matrix",
    icon: menuIcon("TableOutlined"),
    apiPath: apiPaths["firmware-matrix"].list,
    menuEntry: "firmware-support",
  },
};
