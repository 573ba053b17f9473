import { FunctionOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const computedDescriptors: ResourceDefinition = {
  name: "computed-descriptors",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes("/admin/computed-descriptors", lazyPage(() => import("./list"), "ComputedDescriptorsList"), ["create", "edit"]),
  meta: { label: "Computed descriptors", icon: createElement(FunctionOutlined), menu: "admin", apiPath: apiPaths["computed-descriptors"].list },
};
