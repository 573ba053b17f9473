import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const managedDealers: ResourceDefinition = {
  name: "managed-dealers",
  guard: "public",
  layout: "portal",
  list: { path: "/managed-dealers", component: lazyPage(() => import("./list"), "ManagedDealersList") },
  meta: { label: "Dealers", icon: menuIcon("ShopOutlined"), menu: "portal", apiPath: apiPaths["managed-dealers"].list },
};
