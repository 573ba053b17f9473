import { CloudUploadOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { FlashingOverviewList } from "./list";

export const flashingOverview: ResourceDefinition = {
  name: "flashing-overview",
  guard: "auth",
  layout: "portal",
  list: { path: "/admin/flashing-overview", component: FlashingOverviewList },
  meta: { label: "Flashing overview", icon: createElement(CloudUploadOutlined), menu: "portal", apiPath: "analytics/flashing-overview" },
};
