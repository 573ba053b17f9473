import type { AccessControlProvider } from "@refinedev/core";
import { satisfiesRole } from "../../contracts/access";
import type { Role } from "../../contracts/account";

export const guards = ["public", "auth", "dealer", "admin"] as const;
export type Guard = (typeof guards)[number];

export interface AccessDecision {
  can: boolean;
  reason?: string;
}

/**
 * The route guards as a pure function of the caller's role (null when signed out).
 * Dealer routes need a signed-in dealer (or admin), admin routes a signed-in admin.
 */
export function canAccess(role: Role | null, guard: string): AccessDecision {
  switch (guard) {
    case "public":
      return { can: true };
    case "auth":
      return role ? { can: true } : { can: false, reason: "Sign in to open this page" };
    case "dealer":
    case "admin":
      if (!role) return { can: false, reason: "Sign in to open this page" };
      return satisfiesRole(role, guard)
        ? { can: true }
        : { can: false, reason: guard === "admin" ? "This page is for administrators" : "This page is for dealers" };
    default:
      throw new Error(`Unknown route guard "${guard}"`);
  }
}

/** Refine's provider: no network calls; the role comes from the cached ID token's claims once known. */
export function createAccessControlProvider(
  currentRole: () => Promise<Role | null>,
  guardOf: (resource: string) => string | undefined,
): AccessControlProvider {
  return {
    // A menu entry passes its resource item: its identifier names the view (`user-vehicles/managed`).
    can: async ({ resource, params }) => {
      const identifier = typeof params?.resource?.identifier === "string" ? params.resource.identifier : resource;
      const guard = identifier ? guardOf(identifier) : "public";
      if (guard === undefined) return { can: false, reason: `Unknown resource "${resource}"` };
      return canAccess(await currentRole(), guard);
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
