import { BellOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const notifications: ResourceDefinition = {
  name: "notifications",
  guard: "auth",
  layout: "portal",
  list: { path: "/notifications", component: lazyPage(() => import("./list"), "NotificationsList") },
  meta: { label: "Notifications", icon: createElement(BellOutlined), menu: "portal" },
};
