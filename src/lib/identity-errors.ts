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
  "multi-factor-auth-required": "This account uses a second factor, which this portal does not support yet in the browser. Sign in with the app.",
  "account-exists-with-different-credential": "An account already exists with this email but a different sign-in method. Sign in with that method first.",
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

/** Codes after which the user must be signed out: the account is disabled or its session expired. */
export const FORCED_SIGN_OUT_CODES: ReadonlySet<string> = new Set(["user-disabled", "user-token-expired"]);
