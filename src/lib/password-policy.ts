/**
 * The identity service's password policy and the checklist the sign-up and reset
 * forms show as the user types. The policy comes from the service's `v2/passwordPolicy` endpoint
 * (the one the web SDK's validatePassword reads), at the address /config.json names, and only where
 * the service has one; we fetch it ourselves so that it can be fetched again after the service
 * answers `password-does-not-meet-requirements` (the SDK only re-caches it in the background, with
 * no way to wait for the new one).
 */
import type { RuntimeConfig } from "./runtime-config";

export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

export interface PasswordPolicy {
  minLength: number;
  maxLength?: number;
  lowercase?: boolean;
  uppercase?: boolean;
  numeric?: boolean;
  nonAlphanumeric?: boolean;
  /** The characters that count as non-alphanumeric; empty means any character that is not a letter or digit. */
  allowedNonAlphanumeric: string;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: DEFAULT_MIN_PASSWORD_LENGTH,
  allowedNonAlphanumeric: "",
};

/** The service's answer, as documented for `GET v2/passwordPolicy`. */
interface PolicyResponse {
  customStrengthOptions?: {
    minPasswordLength?: number;
    maxPasswordLength?: number;
    containsLowercaseCharacter?: boolean;
    containsUppercaseCharacter?: boolean;
    containsNumericCharacter?: boolean;
    containsNonAlphanumericCharacter?: boolean;
  };
  allowedNonAlphanumericCharacters?: string[];
  enforcementState?: string;
}

/** Turns the service's answer into our policy; an unenforced or unreadable policy is the default one. */
export function policyFromResponse(body: unknown): PasswordPolicy {
  const response = body as PolicyResponse | null;
  const options = response?.customStrengthOptions;
  if (!options || response?.enforcementState === "OFF") return DEFAULT_PASSWORD_POLICY;
  const positive = (value: unknown) =>
    typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
  return {
    minLength: positive(options.minPasswordLength) ?? DEFAULT_MIN_PASSWORD_LENGTH,
    ...(positive(options.maxPasswordLength) && { maxLength: positive(options.maxPasswordLength) }),
    ...(options.containsLowercaseCharacter && { lowercase: true }),
    ...(options.containsUppercaseCharacter && { uppercase: true }),
    ...(options.containsNumericCharacter && { numeric: true }),
    ...(options.containsNonAlphanumericCharacter && { nonAlphanumeric: true }),
    allowedNonAlphanumeric: (response.allowedNonAlphanumericCharacters ?? []).join(""),
  };
}

export interface PasswordRule {
  key: "minLength" | "maxLength" | "lowercase" | "uppercase" | "numeric" | "nonAlphanumeric";
  label: string;
  met: boolean;
}

/** One line per requirement the policy has, in the order people read them. */
export function passwordChecklist(password: string, policy: PasswordPolicy): PasswordRule[] {
  const characters = [...password];
  const rules: PasswordRule[] = [
    { key: "minLength", label: `At least ${policy.minLength} characters`, met: characters.length >= policy.minLength },
  ];
  if (policy.maxLength) {
    rules.push({
      key: "maxLength",
      label: `At most ${policy.maxLength} characters`,
      met: characters.length <= policy.maxLength,
    });
  }
  if (policy.lowercase) rules.push({ key: "lowercase", label: "A lowercase letter", met: /\p{Ll}/u.test(password) });
  if (policy.uppercase) rules.push({ key: "uppercase", label: "An uppercase letter", met: /\p{Lu}/u.test(password) });
  if (policy.numeric) rules.push({ key: "numeric", label: "A number", met: /[0-9]/.test(password) });
  if (policy.nonAlphanumeric) {
    const allowed = policy.allowedNonAlphanumeric;
    rules.push({
      key: "nonAlphanumeric",
      label: allowed ? `A symbol (one of ${allowed})` : "A symbol, such as ! or #",
      met: characters.some((c) => (allowed ? allowed.includes(c) : /[^\p{L}\p{N}]/u.test(c))),
    });
  }
  return rules;
}

export function meetsPasswordPolicy(password: string, policy: PasswordPolicy): boolean {
  return passwordChecklist(password, policy).every((rule) => rule.met);
}

/**
 * Fetches the current policy. A service without a policy (no address in the runtime config: the
 * emulator) is not asked, and one that cannot be read means the default: the service then only
 * enforces the minimum length.
 */
export async function fetchPasswordPolicy(
  config: Pick<RuntimeConfig, "passwordPolicyUrl">,
  fetcher: typeof fetch = fetch,
): Promise<PasswordPolicy> {
  if (!config.passwordPolicyUrl) return DEFAULT_PASSWORD_POLICY;
  try {
    const response = await fetcher(config.passwordPolicyUrl, { cache: "no-store" });
    return response.ok ? policyFromResponse(await response.json()) : DEFAULT_PASSWORD_POLICY;
  } catch {
    return DEFAULT_PASSWORD_POLICY;
  }
}
