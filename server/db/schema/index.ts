// One file per area; each area's tables are added to its own file and re-exported here.

export * from "./audit";
export * from "./catalogue";
export * from "./data-logs";
export * from "./flash-logs";
export * from "./identity";
export * from "./jobs";
export * from "./notifications";
export * from "./payments";
export * from "./profile-change-requests";
export * from "./public-site";
export * from "./repositories";
export * from "./tune-files";
export * from "./tuning-requests";
export * from "./vehicles";
