/** How users read on the admin's pages: role colours, dates, the path of a user's page. */
import type { Role } from "../../../contracts/account";

export const ROLE_COLORS: Record<Role, string> = { customer: "default", dealer: "blue", admin: "purple" };

export const when = (value: string | null) => (value ? new Date(value).toLocaleString() : "—");

export const userPath = (uid: string) => `/admin/users/${encodeURIComponent(uid)}`;
