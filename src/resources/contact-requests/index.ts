import { menuIcon } from "../../components/menu-icon";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";

export const contactRequests: ResourceDefinition = {
  name: "contact-requests",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/enquiries", component: lazyPage(() => import("./list"), "ContactRequestsList") },
  meta: { label: "Enquiries", icon: menuIcon("MailOutlined"), menu: "admin" },
};
