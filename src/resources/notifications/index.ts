import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const notifications: ResourceDefinition = {
  name: "notifications",
  guard: "auth",
  layout: "portal",
  list: { path: "/notifications", component: lazyPage(() => import("./list"), "NotificationsList") },
  meta: { label: "Notifications", icon: menuIcon("BellOutlined"), menu: "portal" },
};
