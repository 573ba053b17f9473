// One file per area; each area's tables are added to its own file and re-exported here.
export * from "./identity";
export * from "./catalogue";
export * from "./data-logs";
export * from "./public-site";
export * from "./tune-files";
export * from "./notifications";
export * from "./flash-logs";
export * from "./vehicles";
export * from "./payments";
export * from "./repositories";
export * from "./tuning-requests";
export * from "./audit";
export * from "./profile-change-requests";
export * from "./jobs";
