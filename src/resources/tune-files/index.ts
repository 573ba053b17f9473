import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** The tune files, on the page "My tunes": the vehicles' tunes for everyone, the catalogue for sellers. */
export const tuneFiles: ResourceDefinition = {
  name: "tune-files",
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
  },
};
