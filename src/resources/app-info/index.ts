import { InfoCircleOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { AppInfoList } from "./list";

export const appInfo: ResourceDefinition = {
  name: "app-info",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/app-info", component: AppInfoList },
  meta: { label: "App info", icon: createElement(InfoCircleOutlined), menu: "admin", apiPath: "status" },
};
