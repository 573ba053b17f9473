/**
 * The dashboard's greeting. The identity provider sets an account's first sign-in time with its
 * creation (sign-up signs in), and moves it on each later sign-in: an account still in the
 * session of its sign-up is welcomed, anyone signing in again is welcomed back.
 */

/** Sign-up and its first sign-in are written by separate steps a moment apart. */
const SAME_SESSION_MS = 60_000;

export function isFirstSession(account: { creationTime: string | null; lastSignInTime: string | null }): boolean {
  if (!account.creationTime || !account.lastSignInTime) return true;
  const created = Date.parse(account.creationTime);
  const signedIn = Date.parse(account.lastSignInTime);
  return Number.isNaN(created) || Number.isNaN(signedIn) || signedIn - created < SAME_SESSION_MS;
}

export function greetingFor(account: {
  displayName: string | null;
  email: string | null;
  creationTime: string | null;
  lastSignInTime: string | null;
}): string {
  const name = account.displayName ?? account.email;
  return `${isFirstSession(account) ? "Welcome" : "Welcome back"}, ${name}`;
}
