import { CarOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { UserDevicesList } from "./list";

export const userDevices: ResourceDefinition = {
  name: "user-devices",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/user-devices", component: UserDevicesList },
  meta: { label: "User vehicles", icon: createElement(CarOutlined), menu: "admin", apiPath: "user-vehicles" },
};
