import { ToolOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { ManagedDevicesList } from "./list";
import { ManagedDevicesShow } from "./show";

export const managedDevices: ResourceDefinition = {
  name: "managed-devices",
  guard: "dealer",
  layout: "portal",
  list: { path: "/managed-devices", component: ManagedDevicesList, layout: "none" },
  show: { path: "/managed-devices/:deviceId", component: ManagedDevicesShow },
  meta: { label: "Managed vehicles", icon: createElement(ToolOutlined), menu: "dealer", apiPath: "user-vehicles/managed" },
};
