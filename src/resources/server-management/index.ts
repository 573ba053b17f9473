import { CloudServerOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const serverManagement: ResourceDefinition = {
  name: "server-management",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/server-management", component: lazyPage(() => import("./list"), "ServerManagementList") },
  meta: { label: "Server management", icon: createElement(CloudServerOutlined), menu: "admin", apiPath: apiPaths["server-management"].list },
};
