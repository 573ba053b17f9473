import { z } from "zod";
import { roles } from "./roles";

export const roleSchema = z.enum(roles);
export { claimsForRole, type Role, roleFromClaims } from "./roles";

export const accountPreferencesSchema = z.strictObject({
  units: z.enum(["metric", "imperial"]).optional(),
  language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "Use a language tag such as en or en-GB")
    .optional(),
  /** Each notification is also emailed to the account's address. */
  emailNotifications: z.boolean().optional(),
});
export type AccountPreferences = z.infer<typeof accountPreferencesSchema>;

/** The account as the API answers it: the identity provider's user fields, plus what our server keeps. */
export const accountSchema = z.strictObject({
  uid: z.string(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  tenantId: z.string().nullable(),
  providerData: z.array(
    z.strictObject({
      providerId: z.string(),
      uid: z.string(),
      email: z.string().nullable(),
      displayName: z.string().nullable(),
    }),
  ),
  creationTime: z.string().nullable(),
  lastSignInTime: z.string().nullable(),
  isAnonymous: z.boolean(),
  disabled: z.boolean(),
  role: roleSchema,
  profile: z.strictObject({
    // Stored preferences are answered as kept: a key added later must not fail older rows.
    preferences: z.object({
      units: z.enum(["metric", "imperial"]).optional(),
      language: z.string().optional(),
      emailNotifications: z.boolean().optional(),
    }),
    dealer: z.strictObject({ id: z.string(), businessName: z.string(), status: z.string() }).nullable(),
  }),
  /** Only on a deleted account, as admins read it: what our row keeps once the identity account is gone. */
  deletedAt: z.string().nullable().optional(),
});
export type Account = z.infer<typeof accountSchema>;

/** The only fields a user may change on their own account through our API. */
export const accountPatchSchema = z
  .strictObject({
    displayName: z
      .string()
      .trim()
      .min(1, "Display name cannot be empty")
      .max(80, "Display name is at most 80 characters")
      .nullable(),
    photoURL: z
      .url({ protocol: /^https?$/, message: "Photo URL must be an http(s) address" })
      .max(2048)
      .nullable(),
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

export const sessionResponseSchema = z.strictObject({
  user: z.strictObject({ uid: z.string(), email: z.string().nullable(), role: roleSchema }).nullable(),
  expiresAt: z.string().nullable(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

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

/** `POST /auth/create-session-cookie`: the cookie's value and when it ends. */
export const sessionCookieSchema = z.strictObject({ sessionCookie: z.string(), expiresAt: z.string() });

/** `POST /auth/email/{id}/password-reset | verification`: accepted, and to which address it goes. */
export const emailActionSchema = z.strictObject({ sent: z.literal(true), email: z.string() });

/** A path inside the portal (not `//host`, no backslash) that an emailed link continues to. */
const continuePathSchema = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])[^\\\s]*$/, "continuePath must be a path inside the portal, such as /dashboard");

/** `POST /auth/email/{id}/password-reset | verification` (body optional, none sent is null): where the page that applied the link continues to. */
export const emailActionRequestSchema = z.strictObject({ continuePath: continuePathSchema.optional() });

/**
 * `POST /auth/sign-in-link` and `POST /auth/password-reset-link`, asked without signing in: the
 * answer is the same whether or not the address has an account, so it tells nobody which do.
 */
export const emailLinkRequestSchema = z.strictObject({
  email: z.email("That email address is not valid").max(320),
  continuePath: continuePathSchema.optional(),
});
export type EmailLinkRequest = z.infer<typeof emailLinkRequestSchema>;
export const emailLinkAcceptedSchema = z.strictObject({ accepted: z.literal(true) });

/**
 * `GET /users/{id}/listen` (Server-Sent Events, the user themself, by the session cookie): what
 * happened to the account. Each event revokes the user's refresh tokens, so the open app cannot
 * carry on with its session: a role or dealer-status change hands it a custom token to sign in
 * again with the new claims; the others end the session.
 */
export { ACCOUNT_STREAM_EVENT } from "./listen-streams";
export const accountStreamReasonSchema = z.enum([
  "role-changed",
  "dealer-status-changed",
  "disabled",
  "signed-out",
  "deleted",
]);
export type AccountStreamReason = z.infer<typeof accountStreamReasonSchema>;
export const accountStreamEventSchema = z.strictObject({
  reason: accountStreamReasonSchema,
  /** Said to the user as it is. */
  message: z.string(),
  /** The role from now on (role and dealer-status changes). */
  role: roleSchema.optional(),
  /** A custom token with the new claims (role and dealer-status changes). */
  customToken: z.string().optional(),
});
export type AccountStreamEvent = z.infer<typeof accountStreamEventSchema>;
