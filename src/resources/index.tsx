import type { ResourceProps } from "@refinedev/core";
import { menuIcon } from "../components/menu-icon";
import { pages } from "../pages";
import type { ParentGroup } from "../routing/registry";
import type { ResourceDefinition } from "../routing/types";
import { appInfo } from "./app-info";
import { computedDescriptors } from "./computed-descriptors";
import { contactRequests } from "./contact-requests";
import { dataLogs, sharedDataLog } from "./data-logs";
import { demoRequests } from "./demo-requests";
import { firmwareMatrix } from "./firmware-matrix";
import { firmwareSupport } from "./firmware-support";
import { flashingOverview } from "./flashing-overview";
import { formatRequests } from "./format-requests";
import { managedDealers } from "./managed-dealers";
import { notifications } from "./notifications";
import { obdFunctions } from "./obd-functions";
import { passwordStorage } from "./password-storage";
import { pidDescriptors } from "./pid-descriptors";
import { pidTemplates } from "./pid-templates";
import { profileChangeRequests } from "./profile-change-requests";
import { serverManagement } from "./server-management";
import { adminSupportRequests, supportRequests } from "./support-requests";
import { supportedVehicles } from "./supported-vehicles";
import { tuneFilePatches } from "./tune-file-patches";
import { tuneFiles } from "./tune-files";
import { tuningRequests } from "./tuning-requests";
import { adminUserVehicles, managedVehicles, userVehicles } from "./user-vehicles";
import { users } from "./users";

/** Every route of the app, declared once. Order is menu order. */
export const registry: ResourceDefinition[] = [
  ...pages,
  userVehicles,
  tuneFiles,
  supportRequests,
  dataLogs,
  sharedDataLog,
  notifications,
  managedDealers,
  flashingOverview,
  tuningRequests,
  managedVehicles,
  appInfo,
  users,
  profileChangeRequests,
  formatRequests,
  adminUserVehicles,
  firmwareSupport,
  firmwareMatrix,
  supportedVehicles,
  passwordStorage,
  obdFunctions,
  pidTemplates,
  pidDescriptors,
  computedDescriptors,
  tuneFilePatches,
  adminSupportRequests,
  contactRequests,
  demoRequests,
  serverManagement,
];

/** The menu's groups above their pages: each a heading with its icon. */
export const menuParents: Record<ParentGroup, ResourceProps> = {
  dealer: { name: "dealer", meta: { label: "Dealer", icon: menuIcon("ShopOutlined") } },
  admin: { name: "admin", meta: { label: "Administration", icon: menuIcon("CrownOutlined") } },
};

export {
  flattenRoutes,
  guardOf,
  isPublicSitePath,
  keepAliveFor,
  keepAliveKey,
  notFoundLayout,
  preloadRoute,
  refineResources,
  registerResources,
  routeFor,
} from "../routing/registry";
