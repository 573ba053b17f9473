import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** The admins' list of refused logs kept so their format can be added. */
export const formatRequests: ResourceDefinition = {
  name: "format-requests",
  guard: "admin",
  layout: "portal",
  list: {
    path: "/admin/format-requests",
    component: lazyPage(() => import("./list"), "FormatRequestsList"),
  },
  meta: {
    label: "Format requests",
    icon: menuIcon("FileUnknownOutlined"),
    menu: "admin",
    apiPath: apiPaths["format-requests"].list,
  },
};
