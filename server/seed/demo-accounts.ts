import type { Role } from "../../contracts/account";

/** The demo accounts' one password (shown on the sign-in page in demo mode and in the README). */
export const DEMO_PASSWORD = "tune-demo-1";

export const demoAccounts: { email: string; displayName: string; role: Role }[] = [
  { email: "admin@example.com", displayName: "Alex Admin", role: "admin" },
  { email: "dealer@example.com", displayName: "Dana Dealer", role: "dealer" },
  { email: "customer@example.com", displayName: "Casey Customer", role: "customer" },
];
