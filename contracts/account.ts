import { z } from "zod";

export const roleSchema = z.enum(["customer", "dealer", "admin"]);
export type Role = z.infer<typeof roleSchema>;

/** The account as the API answers it: the identity provider's user fields, plus what our server keeps. */
export interface Account {
  uid: string;
  displayName: string | null;
  photoURL: string | null;
  email: string | null;
  emailVerified: boolean;
  phoneNumber: string | null;
  tenantId: string | null;
  providerData: { providerId: string; uid: string; email: string | null; displayName: string | null }[];
  creationTime: string | null;
  lastSignInTime: string | null;
  isAnonymous: boolean;
  disabled: boolean;
  role: Role;
  profile: {
    preferences: AccountPreferences;
    dealer: { id: string; businessName: string; status: string } | null;
  };
}

export const accountPreferencesSchema = z.strictObject({
  units: z.enum(["metric", "imperial"]).optional(),
  language: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, "Use a language tag such as en or en-GB").optional(),
});
export type AccountPreferences = z.infer<typeof accountPreferencesSchema>;

/** The only fields a user may change on their own account through our API. */
export const accountPatchSchema = z
  .strictObject({
    displayName: z.string().trim().min(1, "Display name cannot be empty").max(80, "Display name is at most 80 characters").nullable(),
    photoURL: z.url({ protocol: /^https?$/, message: "Photo URL must be an http(s) address" }).max(2048).nullable(),
    phoneNumber: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, "Phone number must be in international format, e.g. +441234567890")
      .nullable(),
    preferences: accountPreferencesSchema,
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: "Nothing to change: send at least one field" });
export type AccountPatch = z.infer<typeof accountPatchSchema>;

export const sessionRequestSchema = z.strictObject({
  token: z.string().min(1, "token is required").nullable(),
});

export interface SessionResponse {
  user: { uid: string; email: string | null; role: Role } | null;
  expiresAt: string | null;
}

export const createSessionCookieSchema = z.strictObject({
  idToken: z.string().min(1, "idToken is required"),
  /** Milliseconds; the identity service accepts 5 minutes to 14 days. */
  expiresIn: z
    .number()
    .int()
    .min(5 * 60 * 1000, "expiresIn must be at least 5 minutes")
    .max(14 * 24 * 60 * 60 * 1000, "expiresIn must be at most 14 days")
    .optional(),
});

export function roleFromClaims(claims: Record<string, unknown> | undefined | null): Role {
  if (claims?.admin === true) return "admin";
  if (claims?.dealer === true) return "dealer";
  return "customer";
}
