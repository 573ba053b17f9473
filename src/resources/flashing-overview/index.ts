import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const flashingOverview: ResourceDefinition = {
  name: "flashing-overview",
  guard: "auth",
  layout: "portal",
  list: { path: "/admin/flashing-overview", component: lazyPage(() => import("./list"), "FlashingOverviewList") },
  meta: {
    label: "Flashing overview",
    icon: menuIcon("CloudUploadOutlined"),
    menu: "admin",
    apiPath: apiPaths["flashing-overview"].list,
  },
};
