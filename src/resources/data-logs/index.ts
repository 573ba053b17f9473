import { LineChartOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../lazy-page";
import type { ResourceDefinition } from "../types";

export const dataLogs: ResourceDefinition = {
  name: "data-logs",
  guard: "auth",
  layout: "none",
  list: { path: "/tuning-tools/data-logs", component: lazyPage(() => import("./list"), "DataLogsList") },
  show: {
    path: "/tuning-tools/data-logs/:id",
    component: lazyPage(() => import("./show"), "DataLogsShow"),
    validate: ({ id }) => isUuid(id),
  },
  meta: { label: "Data logs", icon: createElement(LineChartOutlined), menu: "portal" },
};
