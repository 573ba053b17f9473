import { BellOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { NotificationsList } from "./list";

export const notifications: ResourceDefinition = {
  name: "notifications",
  guard: "auth",
  layout: "portal",
  list: { path: "/notifications", component: NotificationsList },
  meta: { label: "Notifications", icon: createElement(BellOutlined), menu: "portal" },
};
