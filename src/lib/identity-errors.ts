/** Plain English for every identity error code the app can meet (codes arrive as "auth/<code>"). */
const messages: Record<string, string> = {
  "invalid-email": "That email address is not valid.",
  "wrong-password": "Email or password is incorrect.",
  "user-not-found": "Email or password is incorrect.",
  "invalid-credential": "Email or password is incorrect.",
  "invalid-login-credentials": "Email or password is incorrect.",
  "missing-password": "Enter your password.",
  "email-already-in-use": "An account with this email already exists. Sign in instead, or reset your password.",
  "too-many-requests": "Too many attempts. Wait a few minutes, then try again.",
  "expired-action-code": "This link has expired. Ask for a new one.",
  "invalid-action-code": "This link is not valid any more: it may have been used already. Ask for a new one.",
  "requires-recent-login": "For your security, sign in again before doing this.",
  "user-disabled": "This account has been disabled. Contact support if you think this is a mistake.",
  "user-token-expired": "Your session has expired. Sign in again.",
  "password-does-not-meet-requirements": "The password does not meet the requirements below.",
  "network-request-failed": "We could not reach the sign-in service. Check your connection and retry.",
  "multi-factor-auth-required":
    "This account uses a second factor, which this portal does not support yet in the browser. Sign in with the app.",
  "account-exists-with-different-credential":
    "This email already has an account with a password. Sign in with your password first; Google can then be added to the account.",
  "credential-already-in-use": "This Google account is already used by another account of this portal.",
  "provider-already-linked": "Google is already added to this account.",
  "popup-blocked": "The browser blocked the Google sign-in window. Allow pop-ups for this site and try again.",
  "unauthorized-domain": "Google sign-in is not set up for this address of the portal.",
  "admin-restricted-operation": "This sign-in method is turned off for this portal.",
  "operation-not-allowed": "This sign-in method is not enabled for this portal.",
  "weak-password": "The password is too weak: use at least 6 characters.",
};

export function identityErrorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code.replace(/^auth\//, "") : null;
}

export function identityErrorMessage(error: unknown): string {
  const code = identityErrorCode(error);
  if (code && messages[code]) return messages[code];
  return error instanceof Error && error.message ? error.message : "Something went wrong. Try again.";
}

/** The user closed or replaced the identity service's window themselves: nothing to report. */
export function isIdpCancellation(error: unknown): boolean {
  const code = identityErrorCode(error);
  return code === "popup-closed-by-user" || code === "cancelled-popup-request" || code === "user-cancelled";
}

/** Codes after which the user must be signed out: the account is disabled or its session expired. */
export const FORCED_SIGN_OUT_CODES: ReadonlySet<string> = new Set(["user-disabled", "user-token-expired"]);
