import { InboxOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const tuningRequests: ResourceDefinition = {
  name: "tuning-requests",
  guard: "dealer",
  layout: "portal",
  list: { path: "/tuning-requests", component: lazyPage(() => import("./list"), "TuningRequestsList") },
  meta: { label: "Tuning requests", icon: createElement(InboxOutlined), menu: "dealer" },
};
