import { menuIcon } from "../../components/menu-icon";
import { isUuid } from "../../lib/route-params";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

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
  meta: { label: "Data logs", icon: menuIcon("LineChartOutlined"), menu: "portal" },
};

/** A share link's read-only view: open to anyone holding the link, so outside the auth guard. */
export const sharedDataLog: ResourceDefinition = {
  name: "shared-data-log",
  guard: "public",
  layout: "none",
  list: {
    path: "/shared/logs/:token",
    component: lazyPage(() => import("./shared"), "SharedDataLogPage"),
    validate: ({ token }) => /^[A-Za-z0-9_-]{43}$/.test(token ?? ""),
  },
  meta: { label: "Shared data log" },
};
