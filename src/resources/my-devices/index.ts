import { createElement } from "react";
import { CarOutlined } from "@ant-design/icons";
import type { ResourceDefinition } from "../types";
import { MyDeviceList } from "./list";
import { MyDeviceShow } from "./show";

export const myDevices: ResourceDefinition = {
  name: "my-devices",
  guard: "auth",
  layout: "portal",
  list: { path: "/my-devices", component: MyDeviceList },
  show: { path: "/my-devices/:id", component: MyDeviceShow },
  meta: { label: "My vehicles", icon: createElement(CarOutlined), menu: "portal", apiPath: "user-vehicles" },
};
