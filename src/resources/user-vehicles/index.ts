/**
 * The vehicles: one resource, "user-vehicles" (the API's collection), shown in three views on
 * routes of their own, each with its guard and menu entry: the owner's cars (/my-devices), the
 * cars a dealer manages (/managed-devices) and every car, for admins (/admin/user-devices). Their
 * data hooks all name "user-vehicles", so an edit on one view refreshes every other.
 */
import { menuIcon } from "../../components/menu-icon";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const userVehicles: ResourceDefinition = {
  name: "user-vehicles",
  guard: "auth",
  layout: "portal",
  list: { path: "/my-devices", component: lazyPage(() => import("./list"), "MyDeviceList") },
  show: {
    path: "/my-devices/:id",
    component: lazyPage(() => import("./show"), "MyDeviceShow"),
    validate: ({ id }) => isUuid(id),
  },
  meta: { label: "My vehicles", icon: menuIcon("CarOutlined"), menu: "portal" },
};

/** The dealer's view: the cars running one of their tunes. */
export const managedVehicles: ResourceDefinition = {
  name: "user-vehicles",
  view: "managed",
  guard: "dealer",
  layout: "portal",
  list: {
    path: "/managed-devices",
    component: lazyPage(() => import("./managed-list"), "ManagedDevicesList"),
    layout: "none",
  },
  show: {
    path: "/managed-devices/:deviceId",
    component: lazyPage(() => import("./managed-show"), "ManagedDevicesShow"),
    validate: ({ deviceId }) => isUuid(deviceId),
  },
  meta: { label: "Managed vehicles", icon: menuIcon("ToolOutlined"), menu: "dealer" },
};

/** The admins' view: every car in the system, with its owner. */
export const adminUserVehicles: ResourceDefinition = {
  name: "user-vehicles",
  view: "admin",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/user-devices", component: lazyPage(() => import("./admin-list"), "UserDevicesList") },
  meta: { label: "User vehicles", icon: menuIcon("CarOutlined"), menu: "admin" },
};
