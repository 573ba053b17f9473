import { FunctionOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { ComputedDescriptorsList } from "./list";

export const computedDescriptors: ResourceDefinition = {
  name: "computed-descriptors",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/computed-descriptors", component: ComputedDescriptorsList },
  meta: { label: "Computed descriptors", icon: createElement(FunctionOutlined), menu: "admin", apiPath: "firmware-support/computed-descriptors" },
};
