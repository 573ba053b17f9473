import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const myDevices: ResourceDefinition = {
  name: "my-devices",
  guard: "auth",
  layout: "portal",
  list: { path: "/my-devices", component: lazyPage(() => import("./list"), "MyDeviceList") },
  show: {
    path: "/my-devices/:id",
    component: lazyPage(() => import("./show"), "MyDeviceShow"),
    validate: ({ id }) => isUuid(id),
  },
  meta: { label: "My vehicles", icon: menuIcon("CarOutlined"), menu: "portal", apiPath: apiPaths["my-devices"].list },
};
