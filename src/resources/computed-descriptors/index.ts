import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const computedDescriptors: ResourceDefinition = {
  name: "computed-descriptors",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/computed-descriptors",
    lazyPage(() => import("./list"), "ComputedDescriptorsList"),
    ["create", "edit"],
  ),
  meta: {
    label: "Computed descriptors",
    icon: menuIcon("FunctionOutlined"),
    menu: "admin",
    apiPath: apiPaths["computed-descriptors"].list,
  },
};
