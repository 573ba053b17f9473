import { LineChartOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { DataLogsList } from "./list";
import { DataLogsShow } from "./show";

export const dataLogs: ResourceDefinition = {
  name: "data-logs",
  guard: "auth",
  layout: "none",
  list: { path: "/tuning-tools/data-logs", component: DataLogsList },
  show: { path: "/tuning-tools/data-logs/:id", component: DataLogsShow },
  meta: { label: "Data logs", icon: createElement(LineChartOutlined), menu: "portal" },
};
