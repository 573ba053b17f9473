import { CarryOutOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { OnboardingVehiclesList } from "./list";

export const onboardingVehicles: ResourceDefinition = {
  name: "onboarding-vehicles",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/onboarding-vehicles", component: OnboardingVehiclesList },
  meta: { label: "Onboarding vehicles", icon: createElement(CarryOutOutlined), menu: "admin", apiPath: "user-vehicles/support-request" },
};
