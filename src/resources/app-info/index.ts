import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const appInfo: ResourceDefinition = {
  name: "app-info",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/app-info", component: lazyPage(() => import("./list"), "AppInfoList") },
  meta: { label: "App info", icon: menuIcon("InfoCircleOutlined"), menu: "admin", apiPath: apiPaths["app-info"].list },
};
