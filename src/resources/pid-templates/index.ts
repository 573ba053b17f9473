import { OrderedListOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const pidTemplates: ResourceDefinition = {
  name: "pid-templates",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes("/admin/pid-templates", lazyPage(() => import("./list"), "PidTemplatesList"), ["create", "edit"]),
  meta: { label: "PID templates", icon: createElement(OrderedListOutlined), menu: "admin", apiPath: apiPaths["pid-templates"].list },
};
