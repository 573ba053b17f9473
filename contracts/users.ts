/**
 * Users as admins manage them: `GET /users` lists our mirror of every identity account (kept in
 * step on sign-in, on every admin change and by a reconciliation job), searchable without paging
 * through the identity service; `POST /users` creates an account that receives an invitation;
 * `PATCH /users/{id}` changes role, disabled or display name, each with a reason the audit keeps.
 */
import { z } from "zod";
import { roleSchema } from "./account";
import { listResponseSchema } from "./list-response";
import { DEALER_STATUSES } from "./public-site";

export const userSummarySchema = z.strictObject({
  uid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  role: roleSchema,
  disabled: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  /** Set when the account was deleted: its personal data is gone, the row stays for money and the audit. */
  deletedAt: z.iso.datetime({ offset: true }).nullable(),
  dealer: z.strictObject({ id: z.string(), businessName: z.string(), status: z.enum(DEALER_STATUSES) }).nullable(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const userList = {
  sort: ["createdAt", "lastSignInAt", "email", "displayName"],
  filter: ["role", "disabled", "emailVerified", "createdAt", "lastSignInAt", "email", "deleted"],
} as const;
export const userPageSchema = listResponseSchema(userSummarySchema);

const reason = z
  .string()
  .trim()
  .min(3, "say why in a few words (the audit keeps it, and the user reads it)")
  .max(500, "reason is at most 500 characters");
const displayName = z
  .string()
  .trim()
  .min(1, "display name cannot be empty")
  .max(80, "display name is at most 80 characters");

const businessName = z.string().trim().min(2, "business name is at least 2 characters").max(120);

export const userCreateSchema = z
  .strictObject({
    email: z
      .email("email must be an email address")
      .max(254)
      .transform((email) => email.toLowerCase()),
    displayName: displayName.optional(),
    role: roleSchema.default("customer"),
    /** A dealer account starts with an approved dealer profile under this business name. */
    businessName: businessName.optional(),
  })
  .superRefine((value, context) => {
    if (value.role === "dealer" && !value.businessName)
      context.addIssue({ code: "custom", path: ["businessName"], message: "a dealer account needs a business name" });
  });
export type UserCreateInput = z.input<typeof userCreateSchema>;

export const userPatchSchema = z
  .strictObject({
    role: roleSchema.optional(),
    disabled: z.boolean().optional(),
    displayName: displayName.optional(),
    /** With the dealer role for a user who has no dealer profile: one is opened, approved, under this name. */
    businessName: businessName.optional(),
    reason,
  })
  .refine((value) => value.role !== undefined || value.disabled !== undefined || value.displayName !== undefined, {
    message: "send role, disabled or displayName to change",
  });
export type UserPatchInput = z.input<typeof userPatchSchema>;

/** `POST /users`: the account made, and whether its invitation was sent. */
export const userCreatedSchema = z.strictObject({ user: userSummarySchema, invitationSent: z.boolean() });
export type UserCreated = z.infer<typeof userCreatedSchema>;
