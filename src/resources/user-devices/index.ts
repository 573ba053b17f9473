import { CarOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const userDevices: ResourceDefinition = {
  name: "user-devices",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/user-devices", component: lazyPage(() => import("./list"), "UserDevicesList") },
  meta: { label: "User vehicles", icon: createElement(CarOutlined), menu: "admin", apiPath: apiPaths["user-devices"].list },
};
