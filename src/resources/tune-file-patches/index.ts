import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const tuneFilePatches: ResourceDefinition = {
  name: "tune-file-patches",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/tune-file-patches",
    lazyPage(() => import("./list"), "TuneFilePatchesList"),
  ),
  meta: { label: "Tune-file patches", icon: menuIcon("BuildOutlined"), menu: "admin" },
};
