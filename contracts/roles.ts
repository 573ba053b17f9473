/**
 * The three roles and how identity claims carry them. Without zod, so the app's first load can
 * read a role from a token without the schema library (contracts/account.ts builds its schema on these).
 */
export const roles = ["customer", "dealer", "admin"] as const;
export type Role = (typeof roles)[number];

export function roleFromClaims(claims: Record<string, unknown> | undefined | null): Role {
  if (claims?.admin === true) return "admin";
  if (claims?.dealer === true) return "dealer";
  return "customer";
}

/** The identity claims that give a role (customers have none); the only place roles become claims. */
export function claimsForRole(role: Role, others: Record<string, unknown> = {}): Record<string, unknown> {
  const { admin: _admin, dealer: _dealer, ...rest } = others;
  return role === "customer" ? rest : { ...rest, [role]: true };
}
