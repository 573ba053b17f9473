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
 * management both read the status). The vehicles are one resource, "user-vehicles", whatever view
 * shows them (the owner's, the dealer's managed cars, the admins' list); support requests are one,
 * "support-requests", read by their requester under `mine` and worked by admins in the collection. The notification inbox is
 * per user: `notificationsPath(uid)` in ./listen-streams.
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
  "user-vehicles": path("user-vehicles"),
  "managed-dealers": path("dealers"),
  "tune-files": path("tune-files"),
  "tune-file-patches": path("tune-file-patches"),
  "data-logs": path("data-logs"),
  "data-log-layouts": path("data-log-layouts"),
  "tuning-requests": path("tuning-requests"),
  "contact-requests": path("contact-requests"),
  "demo-requests": path("demo-requests"),
  users: path("users"),
  "profile-change-requests": path("profile-change-requests"),
  "format-requests": path("format-requests"),
  repositories: path("repositories"),
  "audit-events": path("audit-events"),
  "support-requests": path("user-vehicles/support-request"),
  "firmware-support": path("firmware-support", {
    record: "firmware-support/firmware-support",
    create: "firmware-support/firmware-support",
  }),
  "firmware-matrix": path("firmware-support/matrix"),
  "supported-vehicles": path("firmware-support/supported-vehicle"),
  "password-storage": path("firmware-support/password-storage"),
  "obd-functions": path("firmware-support/obd-function"),
  "pid-templates": path("firmware-support/pid-templates"),
  "pid-descriptors": path("firmware-support/pid-descriptors"),
  "computed-descriptors": path("firmware-support/computed-descriptors", {
    record: "firmware-support/computed-descriptor",
    create: "firmware-support/computed-descriptor",
  }),
} as const satisfies Record<string, ResourceApiPath>;

export type ApiResource = keyof typeof apiPaths;

/** The table's entry for a resource name, if it has one. */
export function apiPathOf(resource: string): ResourceApiPath | undefined {
  return Object.hasOwn(apiPaths, resource) ? apiPaths[resource as ApiResource] : undefined;
}

/**
 * The paths below a resource's records, as functions of the ids in them: the app calls them with
 * ids (encoding any that may hold a slash), the server registers its routes with the parameter
 * names (`":id"`), so each path is written once for both. A builder's parameters are named as the
 * server's route parameters (tests/api/api-paths.test.ts checks every one is served). Without a
 * leading slash, as the data provider takes them.
 */
const VEHICLES = apiPaths["user-vehicles"].list;
const TUNE_FILES = apiPaths["tune-files"].list;
const DATA_LOGS = apiPaths["data-logs"].list;
const FIRMWARE = apiPaths["firmware-support"].list;

export const apiRoutes = {
  supportRequests: {
    /** GET: the caller's own support requests (the collection itself is the admins' queue). */
    mine: () => `${apiPaths["support-requests"].list}/mine`,
    /** GET: one of the caller's own support requests. */
    mineRecord: (id: string) => `${apiPaths["support-requests"].list}/mine/${id}`,
  },
  dashboard: {
    /** GET: the caller's dashboard figures, for their role. */
    mine: () => "dashboard",
  },
  serverManagement: {
    /** GET: versions, build and the configuration with secrets masked. */
    appInfo: () => `${apiPaths["app-info"].list}/app-info`,
    /** GET: the newest background jobs with progress and errors. */
    background: () => `${apiPaths["server-management"].list}/background`,
    /** POST (admin): runs the blob collection now. */
    collectBlobs: () => `${apiPaths["server-management"].list}/background/collect-blobs`,
    /** POST (admin): starts another job an admin may start by hand (`reconcile-users`). */
    start: (kind: string) => `${apiPaths["server-management"].list}/background/start/${kind}`,
    /** POST (admin): redoes every kept bake. */
    rebakeAll: () => "baked-tune-files/rebake-all",
    /** POST (admin): a failed job gets one more attempt. */
    retryJob: (id: string) => `${apiPaths["server-management"].list}/background/${id}/retry`,
  },
  account: {
    mine: () => "auth/account",
    of: (id: string) => `auth/account/${id}`,
    /** POST: emails the account a verification link (the user themself, or an admin). */
    verificationEmail: (id: string) => `auth/email/${id}/verification`,
    /** POST: emails the account a password-reset link (the user themself, or an admin). */
    passwordResetEmail: (id: string) => `auth/email/${id}/password-reset`,
    /** POST, without signing in: emails a sign-in link to an address, if an account has it. */
    signInLink: () => "auth/sign-in-link",
    /** POST, without signing in (forgot password): emails a password-reset link to an address, if an account has it. */
    passwordResetLink: () => "auth/password-reset-link",
  },
  users: {
    record: (id: string) => `${apiPaths.users.record}/${id}`,
    revokeSessions: (id: string) => `${apiPaths.users.record}/${id}/revoke-sessions`,
    /** The user's own account stream (server-sent events: role changed, disabled, signed out everywhere). */
    listen: (id: string) => `${apiPaths.users.record}/${id}/listen`,
    profilePicture: (id: string) => `${apiPaths.users.record}/${id}/profile-picture`,
    dealer: (id: string) => `${apiPaths.users.record}/${id}/dealer`,
    transactions: (id: string) => `${apiPaths.users.record}/${id}/transaction`,
    transactionsCsv: (id: string) => `${apiPaths.users.record}/${id}/transaction.csv`,
    connectedAccount: (id: string) => `${apiPaths.users.record}/${id}/connected-account`,
    /** The repositories a user may reach; with `repoId`, giving (POST) or withdrawing (DELETE) one. */
    repositoryAccess: (id: string) => `${apiPaths.users.record}/${id}/repository-access`,
    repositoryGrant: (id: string, repoId: string) => `${apiPaths.users.record}/${id}/repository-access/${repoId}`,
    /** GET the dealer's identity and requests; PUT (multipart) a request to change it. */
    profileChangeRequest: (id: string) => `${apiPaths.users.record}/${id}/profile-change-request`,
    /** POST (admin): `{ decision: "approve" | "reject", note }`. */
    profileChangeDecision: (id: string) => `${apiPaths.users.record}/${id}/profile-change-request/approve`,
    /** A request's document or logo, for the dealer and admins. */
    profileChangeFile: (id: string, fileId: string) =>
      `${apiPaths.users.record}/${id}/profile-change-request/files/${fileId}`,
  },
  formatRequests: {
    /** GET (admins): the kept file of an open request. */
    file: (id: string) => `${apiPaths["format-requests"].record}/${id}/file`,
    /** POST (admins): `{ state: "supported" | "declined", note }`; the kept file is deleted. */
    close: (id: string) => `${apiPaths["format-requests"].record}/${id}/close`,
  },
  tuningRequests: {
    record: (id: string) => `${apiPaths["tuning-requests"].record}/${id}`,
    /** POST (multipart): the dealer delivers a revision. */
    revisions: (id: string) => `${apiPaths["tuning-requests"].record}/${id}/revisions`,
    /** POST (multipart): a file attached to the thread. */
    files: (id: string) => `${apiPaths["tuning-requests"].record}/${id}/files`,
    file: (id: string, fileId: string) => `${apiPaths["tuning-requests"].record}/${id}/files/${fileId}`,
    listen: (id: string) => `${apiPaths["tuning-requests"].record}/${id}/listen`,
    /** GET (dealer): the maps of the tune the next revision starts from. */
    maps: (id: string) => `${apiPaths["tuning-requests"].record}/${id}/maps`,
    /** POST (dealer): changed cells of a map delivered as the next revision. */
    corrections: (id: string) => `${apiPaths["tuning-requests"].record}/${id}/corrections`,
  },
  repositories: {
    record: (id: string) => `${apiPaths.repositories.record}/${id}`,
    members: (id: string) => `${apiPaths.repositories.record}/${id}/members`,
  },
  vehicles: {
    /** GET (dealer): the vehicles running the dealer's tunes, each addressed under the collection. */
    managed: () => `${VEHICLES}/managed`,
    tuneFiles: (id: string) => `${VEHICLES}/${id}/tune-files`,
    /** `x`: the flash slot the bake is for. */
    tempBake: (id: string, x: string) => `${VEHICLES}/${id}/temp-bake/${x}`,
    /** `x`: the flash slot the read came from. */
    uploadTuneDump: (id: string, x: string) => `${VEHICLES}/${id}/upload-tune-dump/${x}`,
    timeline: (id: string) => `${VEHICLES}/${id}/timeline`,
    snapshots: (id: string) => `${VEHICLES}/${id}/snapshots`,
    flashLogs: (id: string) => `${VEHICLES}/${id}/flash-logs`,
    flashLog: (id: string, logId: string) => `${VEHICLES}/${id}/flash-logs/${logId}`,
    listen: (id: string) => `${VEHICLES}/${id}/listen`,
    /** The car's licences; POST removes one (refunding a paid one). */
    purchases: (id: string) => `${VEHICLES}/${id}/tune-files/purchases`,
    purchasesListen: (id: string) => `${VEHICLES}/${id}/tune-files/purchases/listen`,
    tuningRequests: (id: string) => `${VEHICLES}/${id}/tuning-requests`,
    tuningRequestFiles: (id: string) => `${VEHICLES}/${id}/tuning-request-files`,
  },
  tuneFiles: {
    inspect: () => `${TUNE_FILES}/inspect`,
    inspection: (id: string) => `${TUNE_FILES}/${id}/inspection`,
    maps: (id: string) => `${TUNE_FILES}/${id}/maps`,
    mapItem: (id: string, itemId: string) => `${TUNE_FILES}/${id}/maps/${itemId}`,
    stockDifferences: (id: string) => `${TUNE_FILES}/${id}/stock-differences`,
    download: (id: string) => `${TUNE_FILES}/${id}/download`,
    blob: (id: string) => `${TUNE_FILES}/${id}/blob`,
    publish: (id: string) => `${TUNE_FILES}/${id}/publish`,
    unpublish: (id: string) => `${TUNE_FILES}/${id}/unpublish`,
  },
  dealers: {
    tuneFiles: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/tune-files`,
    status: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/status`,
    admin: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/admin`,
    /** PATCH: the dealer's own terms (free revision days). */
    settings: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/settings`,
    /** PATCH: the dealer's own words about their business, shown on their page. */
    about: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/about`,
    /** The approved logo, public. */
    logo: (id: string) => `${apiPaths["managed-dealers"].record}/${id}/logo`,
  },
  payments: {
    tuneFileOrder: () => "payments/tune-file-order",
    tuningRequestOrder: () => "payments/tuning-request-order",
    orders: () => "payments/orders",
    order: (id: string) => `payments/orders/${id}`,
    expireSession: () => "payments/expire-session",
    sandboxPay: () => "payments/sandbox/pay",
    sandboxOnboard: () => "payments/sandbox/onboard",
  },
  tuneFilePatches: {
    apply: () => `${apiPaths["tune-file-patches"].list}/apply`,
    compatible: (id: string) => `${apiPaths["tune-file-patches"].record}/${id}/compatible`,
    /** A definition file (XDF, RomRaider, EcuFlash): preview, then store; the path keeps its first name. */
    importDefinition: () => `${apiPaths["tune-file-patches"].list}/import-xdf`,
  },
  dataLogs: {
    columns: (id: string) => `${DATA_LOGS}/${id}/columns`,
    share: (id: string) => `${DATA_LOGS}/${id}/share`,
    shares: (id: string) => `${DATA_LOGS}/${id}/shares`,
    shared: (token: string) => `${DATA_LOGS}/shared/${token}`,
    sharedColumns: (token: string) => `${DATA_LOGS}/shared/${token}/columns`,
    computedDescriptors: () => `${DATA_LOGS}/computed-descriptors`,
  },
  /** Notes pinned to a log's times, and the file's own markers; a share link reads them too. */
  dataLogMarkers: {
    list: (id: string) => `${DATA_LOGS}/${id}/markers`,
    record: (id: string, markerId: string) => `${DATA_LOGS}/${id}/markers/${markerId}`,
    shared: (token: string) => `${DATA_LOGS}/shared/${token}/markers`,
  },
  flashLog: {
    list: () => "flash-log",
    record: (id: string) => `flash-log/${id}`,
  },
  publicSite: {
    supportedVehicles: () => "public/supported-vehicles",
  },
  analytics: {
    overview: () => apiPaths["flashing-overview"].list,
    overtime: () => "analytics/flashing-overtime",
  },
  firmwareSupport: {
    flashingSupport: () => `${FIRMWARE}/flashing-support`,
    bootloader: (id: string) => `${FIRMWARE}/flashing-support/${id}/bootloader`,
    stockFile: (id: string) => `${apiPaths["firmware-support"].record}/${id}/stock-file`,
    /** GET: identify candidates and checksum schemes that verify, from the record's stock read. */
    firstSetup: (id: string) => `${apiPaths["firmware-support"].record}/${id}/first-setup`,
    /** GET: the record's definition as a TunerPro XDF. */
    definitionXdf: (id: string) => `${apiPaths["firmware-support"].record}/${id}/definition.xdf`,
    channelVariables: () => `${FIRMWARE}/channel-variables`,
    importPidDescriptors: () => `${apiPaths["pid-descriptors"].list}/import`,
  },
} as const;
