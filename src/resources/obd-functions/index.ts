import { ApiOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const obdFunctions: ResourceDefinition = {
  name: "obd-functions",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes("/admin/obd-functions", lazyPage(() => import("./list"), "ObdFunctionsList"), ["create", "edit"]),
  meta: { label: "OBD functions", icon: createElement(ApiOutlined), menu: "admin", apiPath: apiPaths["obd-functions"].list },
};
