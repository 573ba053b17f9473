// One file per entity (or, for the catalogue, per area); each file's tables are re-exported here.

export * from "./audit";
export * from "./data-log-layouts";
export * from "./data-log-markers";
export * from "./data-logs";
export * from "./dealers";
export * from "./firmware-support";
export * from "./flash-logs";
export * from "./format-requests";
export * from "./jobs";
export * from "./live-events";
export * from "./notifications";
export * from "./payments";
export * from "./profile-change-requests";
export * from "./profile-pictures";
export * from "./public-site";
export * from "./repositories";
export * from "./support-requests";
export * from "./tune-files";
export * from "./tuning-requests";
export * from "./user-vehicles";
export * from "./users";
export * from "./vehicle-snapshots";
