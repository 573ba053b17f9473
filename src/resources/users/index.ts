import { menuIcon } from "../../components/menu-icon";
import { isUid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const users: ResourceDefinition = {
  name: "users",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/users", component: lazyPage(() => import("./list"), "UsersList") },
  show: {
    path: "/admin/users/:userId",
    component: lazyPage(() => import("./show"), "UsersShow"),
    validate: ({ userId }) => isUid(userId),
  },
  meta: { label: "Users", icon: menuIcon("TeamOutlined"), menu: "admin" },
};
