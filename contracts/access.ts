import type { Role } from "./roles";

const rank: Record<Role, number> = { customer: 0, dealer: 1, admin: 2 };

/** Admins may do what dealers may; dealers what customers may. */
export function satisfiesRole(role: Role, required: Role): boolean {
  return rank[role] >= rank[required];
}
