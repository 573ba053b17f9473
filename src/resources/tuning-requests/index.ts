import { InboxOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { TuningRequestsList } from "./list";

export const tuningRequests: ResourceDefinition = {
  name: "tuning-requests",
  guard: "dealer",
  layout: "portal",
  list: { path: "/tuning-requests", component: TuningRequestsList },
  meta: { label: "Tuning requests", icon: createElement(InboxOutlined), menu: "dealer" },
};
