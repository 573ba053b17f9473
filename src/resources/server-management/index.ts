import { CloudServerOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { ServerManagementList } from "./list";

export const serverManagement: ResourceDefinition = {
  name: "server-management",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/server-management", component: ServerManagementList },
  meta: { label: "Server management", icon: createElement(CloudServerOutlined), menu: "admin", apiPath: "status" },
};
