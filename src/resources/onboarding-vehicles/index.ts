import { CarryOutOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const onboardingVehicles: ResourceDefinition = {
  name: "onboarding-vehicles",
  guard: "admin",
  layout: "portal",
  ...drawerRoutes("/admin/onboarding-vehicles", lazyPage(() => import("./list"), "OnboardingVehiclesList"), ["show"]),
  meta: { label: "Onboarding vehicles", icon: createElement(CarryOutOutlined), menu: "admin", apiPath: apiPaths["onboarding-vehicles"].list },
};
