/**
 * Where each resource lives in the API, under /api/v1: one table for the app's data provider, its
 * components, the server's route registration and the tests, so a path is written once.
 *
 * - `list`: the collection the resource's list reads.
 * - `record`: the prefix of one record's routes (`<record>/:id`); some catalogues are listed under
 *   a plural and addressed under a singular.
 * - `create`: where a new record is sent (a POST, or for catalogues a PUT that creates or
 *   updates); the list's path unless said otherwise.
 *
 * Resources of the app that show the same server data share its path (app info and server
 * management both read the status; my vehicles and the admin's user vehicles both read the
 * vehicles). The notification inbox is per user: `notificationsPath(uid)` in ./notifications.
 */
export interface ResourceApiPath {
  readonly list: string;
  readonly record: string;
  readonly create: string;
}

function path(list: string, more: { record?: string; create?: string } = {}): ResourceApiPath {
  return { list, record: more.record ?? list, create: more.create ?? list };
}

export const apiPaths = {
  "app-info": path("status"),
  "server-management": path("status"),
  "flashing-overview": path("analytics/flashing-overview"),
  "my-devices": path("user-vehicles"),
  "user-devices": path("user-vehicles"),
  "managed-devices": path("user-vehicles/managed", { record: "user-vehicles" }),
  "managed-dealers": path("dealers"),
  "my-tunes": path("tune-files"),
  "tune-files": path("tune-files"),
  "tune-file-patches": path("tune-file-patches"),
  "data-logs": path("data-logs"),
  "tuning-requests": path("tuning-requests"),
  "contact-requests": path("contact-requests"),
  "demo-requests": path("demo-requests"),
  users: path("users"),
  "support-requests": path("user-vehicles/support-request/mine", { create: "user-vehicles/support-request" }),
  "onboarding-vehicles": path("user-vehicles/support-request"),
  "firmware-support": path("firmware-support", { record: "firmware-support/firmware-support", create: "firmware-support/firmware-support" }),
  "firmware-matrix": path("firmware-support/matrix"),
  "supported-vehicles": path("firmware-support/supported-vehicle"),
  "password-storage": path("firmware-support/password-storage"),
  "obd-functions": path("firmware-support/obd-function"),
  "pid-templates": path("firmware-support/pid-templates"),
  "pid-descriptors": path("firmware-support/pid-descriptors"),
  "computed-descriptors": path("firmware-support/computed-descriptors", { record: "firmware-support/computed-descriptor", create: "firmware-support/computed-descriptor" }),
} as const satisfies Record<string, ResourceApiPath>;

export type ApiResource = keyof typeof apiPaths;

/** The table's entry for a resource name, if it has one. */
export function apiPathOf(resource: string): ResourceApiPath | undefined {
  return Object.hasOwn(apiPaths, resource) ? apiPaths[resource as ApiResource] : undefined;
}
