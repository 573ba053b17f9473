import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** Reached from the firmware-support tabs. */
export const passwordStorage: ResourceDefinition = {
  name: "password-storage",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/firmware-support/passwords",
    lazyPage(() => import("./list"), "PasswordStorageList"),
    ["create"],
  ),
  meta: { label: "Password storage", icon: menuIcon("KeyOutlined"), apiPath: apiPaths["password-storage"].list },
};
