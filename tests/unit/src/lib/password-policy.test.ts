import { describe, expect, it, vi } from "vitest";
import {
  DEFAULT_PASSWORD_POLICY,
  fetchPasswordPolicy,
  meetsPasswordPolicy,
  passwordChecklist,
  policyFromResponse,
} from "../../../../src/lib/password-policy";

const strict = policyFromResponse({
  customStrengthOptions: {
    minPasswordLength: 10,
    maxPasswordLength: 20,
    containsLowercaseCharacter: true,
    containsUppercaseCharacter: true,
    containsNumericCharacter: true,
    containsNonAlphanumericCharacter: true,
  },
  allowedNonAlphanumericCharacters: ["!", "#", "$"],
  enforcementState: "ENFORCE",
});

describe("password policy", () => {
  it("defaults to a minimum of 6 characters and nothing else", () => {
    expect(DEFAULT_PASSWORD_POLICY).toEqual({ minLength: 6, allowedNonAlphanumeric: "" });
    expect(passwordChecklist("abcde", DEFAULT_PASSWORD_POLICY)).toEqual([
      { key: "minLength", label: "At least 6 characters", met: false },
    ]);
    expect(meetsPasswordPolicy("abcdef", DEFAULT_PASSWORD_POLICY)).toBe(true);
  });

  it("reads every requirement the service sends", () => {
    expect(strict).toEqual({
      minLength: 10,
      maxLength: 20,
      lowercase: true,
      uppercase: true,
      numeric: true,
      nonAlphanumeric: true,
      allowedNonAlphanumeric: "!#$",
    });
  });

  it("treats an unenforced, empty or malformed answer as the default policy", () => {
    expect(policyFromResponse({ customStrengthOptions: { minPasswordLength: 12 }, enforcementState: "OFF" })).toBe(
      DEFAULT_PASSWORD_POLICY,
    );
    expect(policyFromResponse(null)).toBe(DEFAULT_PASSWORD_POLICY);
    expect(policyFromResponse({ error: { code: 501 } })).toBe(DEFAULT_PASSWORD_POLICY);
    expect(policyFromResponse({ customStrengthOptions: { minPasswordLength: -3, maxPasswordLength: "x" } })).toEqual(
      DEFAULT_PASSWORD_POLICY,
    );
  });

  it("lists each rule as met or not, as the user types", () => {
    const state = (password: string) =>
      Object.fromEntries(passwordChecklist(password, strict).map((rule) => [rule.key, rule.met]));
    expect(state("")).toEqual({
      minLength: false,
      maxLength: true,
      lowercase: false,
      uppercase: false,
      numeric: false,
      nonAlphanumeric: false,
    });
    expect(state("abcDEF1234")).toEqual({
      minLength: true,
      maxLength: true,
      lowercase: true,
      uppercase: true,
      numeric: true,
      nonAlphanumeric: false,
    });
    // Only the listed symbols count when the service lists them.
    expect(state("abcDEF1234%")).toMatchObject({ nonAlphanumeric: false });
    expect(state("abcDEF1234#")).toMatchObject({ nonAlphanumeric: true });
    expect(state("abcDEF1234#abcDEF1234")).toMatchObject({ maxLength: false });
    expect(meetsPasswordPolicy("abcDEF123#", strict)).toBe(true);
  });

  it("counts characters, not UTF-16 units, and accepts any symbol when none are listed", () => {
    const policy = { ...DEFAULT_PASSWORD_POLICY, minLength: 3, nonAlphanumeric: true };
    expect(passwordChecklist("a😀", policy)[0].met).toBe(false);
    expect(meetsPasswordPolicy("ab😀", policy)).toBe(true);
    expect(meetsPasswordPolicy("abc", policy)).toBe(false);
  });

  it("asks nothing of a service without a policy and keeps the default", async () => {
    const fetcher = vi.fn(async () => Response.json({ customStrengthOptions: { minPasswordLength: 8 } }));
    expect(await fetchPasswordPolicy({ passwordPolicyUrl: null }, fetcher)).toBe(DEFAULT_PASSWORD_POLICY);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("falls back to the default when the service's policy cannot be read", async () => {
    const config = { passwordPolicyUrl: "https://identitytoolkit.googleapis.com/v2/passwordPolicy?key=k" };
    const notImplemented = vi.fn(async () => new Response("{}", { status: 501 }));
    expect(await fetchPasswordPolicy(config, notImplemented)).toBe(DEFAULT_PASSWORD_POLICY);
    const offline = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await fetchPasswordPolicy(config, offline)).toBe(DEFAULT_PASSWORD_POLICY);
    const enforced = vi.fn(async () =>
      Response.json({ customStrengthOptions: { minPasswordLength: 8 }, enforcementState: "ENFORCE" }),
    );
    expect(await fetchPasswordPolicy(config, enforced)).toEqual({ minLength: 8, allowedNonAlphanumeric: "" });
    expect(enforced).toHaveBeenCalledWith(config.passwordPolicyUrl, { cache: "no-store" });
  });
});
