import { InfoCircleOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const appInfo: ResourceDefinition = {
  name: "app-info",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/app-info", component: lazyPage(() => import("./list"), "AppInfoList") },
  meta: { label: "App info", icon: createElement(InfoCircleOutlined), menu: "admin", apiPath: apiPaths["app-info"].list },
};
