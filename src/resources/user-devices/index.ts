import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const userDevices: ResourceDefinition = {
  name: "user-devices",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/user-devices", component: lazyPage(() => import("./list"), "UserDevicesList") },
  meta: {
    label: "User vehicles",
    icon: menuIcon("CarOutlined"),
    menu: "admin",
    apiPath: apiPaths["user-devices"].list,
  },
};
