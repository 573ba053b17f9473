/** What the firmware-support routes share: their path prefix, the admin-only config and timestamps as ISO strings. */
import { apiPaths } from "../../../contracts/api-paths";
export const BASE = `/${apiPaths["firmware-support"].list}`;
export const admin = { role: "admin" as const };

export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));
