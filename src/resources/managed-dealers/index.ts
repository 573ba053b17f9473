import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const managedDealers: ResourceDefinition = {
  name: "managed-dealers",
  guard: "public",
  layout: "portal",
  list: { path: "/managed-dealers", component: lazyPage(() => import("./list"), "ManagedDealersList") },
  // A dealer's page: their tunes and the way to ask them for a custom tune, open to visitors too.
  show: {
    path: "/managed-dealers/:id",
    component: lazyPage(() => import("./show"), "ManagedDealerShow"),
    validate: ({ id }) => isUuid(id),
  },
  meta: { label: "Dealers", icon: menuIcon("ShopOutlined"), menu: "portal", apiPath: apiPaths["managed-dealers"].list },
};
