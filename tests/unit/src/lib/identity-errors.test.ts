import { describe, expect, it } from "vitest";
import { FORCED_SIGN_OUT_CODES, identityErrorCode, identityErrorMessage } from "../../../../src/lib/identity-errors";

/** Spec section 8: every identity code the product knows. */
const specCodes = [
  "invalid-email",
  "wrong-password",
  "missing-password",
  "invalid-credential",
  "email-already-in-use",
  "user-not-found",
  "too-many-requests",
  "expired-action-code",
  "invalid-action-code",
  "requires-recent-login",
  "user-disabled",
  "user-token-expired",
  "password-does-not-meet-requirements",
  "network-request-failed",
  "multi-factor-auth-required",
  "account-exists-with-different-credential",
  "admin-restricted-operation",
  "operation-not-allowed",
];

const sdkError = (code: string) =>
  Object.assign(new Error(`Firebase: Error (auth/${code}).`), { code: `auth/${code}` });

describe("identity error messages", () => {
  it.each(specCodes)("%s has its own plain message, not the SDK's text", (code) => {
    const message = identityErrorMessage(sdkError(code));
    expect(message).not.toMatch(/Firebase|auth\//);
    expect(message.length).toBeGreaterThan(10);
  });

  it("does not tell which of email or password was wrong", () => {
    const messages = ["wrong-password", "user-not-found", "invalid-credential"].map((code) =>
      identityErrorMessage(sdkError(code)),
    );
    expect(new Set(messages)).toEqual(new Set(["Email or password is incorrect."]));
  });

  it("asks to wait after too many attempts and offers a retry after a network failure", () => {
    expect(identityErrorMessage(sdkError("too-many-requests"))).toMatch(/wait/i);
    expect(identityErrorMessage(sdkError("network-request-failed"))).toMatch(/retry/i);
  });

  it("reads codes with or without the auth/ prefix, and nothing from other values", () => {
    expect(identityErrorCode({ code: "auth/user-disabled" })).toBe("user-disabled");
    expect(identityErrorCode({ code: "user-disabled" })).toBe("user-disabled");
    expect(identityErrorCode(new Error("boom"))).toBeNull();
    expect(identityErrorCode(null)).toBeNull();
  });

  it("falls back to the error's own message, then to a generic one", () => {
    expect(identityErrorMessage(new Error("Quota exceeded"))).toBe("Quota exceeded");
    expect(identityErrorMessage("???")).toBe("Something went wrong. Try again.");
  });

  it("forces a sign-out exactly for a disabled user and an expired token", () => {
    expect([...FORCED_SIGN_OUT_CODES].sort()).toEqual(["user-disabled", "user-token-expired"]);
  });
});
