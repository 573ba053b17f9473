import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const serverManagement: ResourceDefinition = {
  name: "server-management",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/server-management", component: lazyPage(() => import("./list"), "ServerManagementList") },
  meta: {
    label: "Server management",
    icon: menuIcon("CloudServerOutlined"),
    menu: "admin",
    apiPath: apiPaths["server-management"].list,
  },
};
