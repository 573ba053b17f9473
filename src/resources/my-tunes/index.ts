import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const myTunes: ResourceDefinition = {
  name: "my-tunes",
  guard: "auth",
  layout: "portal",
  ...drawerRoutes(
    "/my-tunes",
    lazyPage(() => import("./list"), "MyTunesList"),
    ["show", "create"],
  ),
  meta: {
    label: "My tunes",
    icon: menuIcon("ThunderboltOutlined"),
    menu: "portal",
    apiPath: apiPaths["my-tunes"].list,
  },
};
