import { ShopOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { ManagedDealersList } from "./list";

export const managedDealers: ResourceDefinition = {
  name: "managed-dealers",
  guard: "public",
  layout: "portal",
  list: { path: "/managed-dealers", component: ManagedDealersList },
  meta: { label: "Dealers", icon: createElement(ShopOutlined), menu: "portal", apiPath: "dealers" },
};
