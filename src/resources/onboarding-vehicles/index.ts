import { apiPaths } from "../../../contracts/api-paths";
import { menuIcon } from "../../components/menu-icon";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const onboardingVehicles: ResourceDefinition = {
  name: "onboarding-vehicles",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes(
    "/admin/onboarding-vehicles",
    lazyPage(() => import("./list"), "OnboardingVehiclesList"),
    ["show"],
  ),
  meta: {
    label: "Onboarding vehicles",
    icon: menuIcon("CarryOutOutlined"),
    menu: "admin",
    apiPath: apiPaths["onboarding-vehicles"].list,
  },
};
