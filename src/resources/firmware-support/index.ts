import { DatabaseOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { FirmwareSupportList } from "./list";

export const firmwareSupport: ResourceDefinition = {
  name: "firmware-support",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/firmware-support", component: FirmwareSupportList },
  meta: { label: "Firmware support", icon: createElement(DatabaseOutlined), menu: "admin" },
};
