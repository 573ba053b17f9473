import { ShopOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const managedDealers: ResourceDefinition = {
  name: "managed-dealers",
  guard: "public",
  layout: "portal",
  list: { path: "/managed-dealers", component: lazyPage(() => import("./list"), "ManagedDealersList") },
  meta: { label: "Dealers", icon: createElement(ShopOutlined), menu: "portal", apiPath: apiPaths["managed-dealers"].list },
};
