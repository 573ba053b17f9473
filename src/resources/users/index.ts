import { TeamOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { UsersList } from "./list";
import { UsersShow } from "./show";

export const users: ResourceDefinition = {
  name: "users",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/users", component: UsersList },
  show: { path: "/admin/users/:userId", component: UsersShow },
  meta: { label: "Users", icon: createElement(TeamOutlined), menu: "admin" },
};
