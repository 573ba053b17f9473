import { ApiOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { ObdFunctionsList } from "./list";

export const obdFunctions: ResourceDefinition = {
  name: "obd-functions",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/obd-functions", component: ObdFunctionsList },
  meta: { label: "OBD functions", icon: createElement(ApiOutlined), menu: "admin", apiPath: "firmware-support/obd-function" },
};
