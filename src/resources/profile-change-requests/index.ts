import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** The admins' review queue of dealers' business identity changes. */
export const profileChangeRequests: ResourceDefinition = {
  name: "profile-change-requests",
  guard: "admin",
  layout: "portal",
  list: {
    path: "/admin/profile-change-requests",
    component: lazyPage(() => import("./list"), "ProfileChangeRequestsList"),
  },
  meta: {
    label: "Profile changes",
    icon: menuIcon("IdcardOutlined"),
    menu: "admin",
    apiPath: apiPaths["profile-change-requests"].list,
  },
};
