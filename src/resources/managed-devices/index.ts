import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const managedDevices: ResourceDefinition = {
  name: "managed-devices",
  guard: "dealer",
  layout: "portal",
  list: { path: "/managed-devices", component: lazyPage(() => import("./list"), "ManagedDevicesList"), layout: "none" },
  show: {
    path: "/managed-devices/:deviceId",
    component: lazyPage(() => import("./show"), "ManagedDevicesShow"),
    validate: ({ deviceId }) => isUuid(deviceId),
  },
  meta: {
    label: "Managed vehicles",
    icon: menuIcon("ToolOutlined"),
    menu: "dealer",
    apiPath: apiPaths["managed-devices"].list,
  },
};
