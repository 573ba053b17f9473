import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

/** Reached from the Enquiries tabs, not the menu. */
export const demoRequests: ResourceDefinition = {
  name: "demo-requests",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/enquiries/demo", component: lazyPage(() => import("./list"), "DemoRequestsList") },
  meta: { label: "Demo requests" },
};
