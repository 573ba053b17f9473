/**
 * Profile change requests: a dealer's business identity (legal name, company number, VAT id,
 * address and logo) changes only through a request carrying its documents (a company-register
 * extract, a VAT certificate), which an admin approves or rejects with a note the dealer is told.
 * A dealer has at most one open request; sending another replaces it.
 *
 * `PUT /users/{id}/profile-change-request` (multipart): the fields below as form fields, each
 * document as a `documents` file part (PDF, PNG, JPEG or WebP) and an optional `logo` file part
 * (PNG, JPEG or WebP; SVG is refused, as it can carry scripts). Fields left out, or sent with the
 * profile's current value, do not change; an empty optional field clears it.
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";

/** The profile fields only a request changes; every other way to change them refuses them. */
export const BUSINESS_IDENTITY_FIELDS = ["businessName", "registrationNumber", "vatNumber", "address"] as const;
export type BusinessIdentityField = (typeof BUSINESS_IDENTITY_FIELDS)[number];

export const BUSINESS_IDENTITY_LABELS: Record<BusinessIdentityField | "logo", string> = {
  businessName: "Legal name",
  registrationNumber: "Company number",
  vatNumber: "VAT id",
  address: "Address",
  logo: "Logo",
};

/** What a refusal elsewhere says, so every refusal points at the same place. */
export const identityChangeHint = (field: string) =>
  `${field} changes only through a profile change request with its documents (PUT /users/{id}/profile-change-request), approved by an administrator`;

export const PROFILE_CHANGE_STATES = ["open", "approved", "rejected"] as const;
export type ProfileChangeState = (typeof PROFILE_CHANGE_STATES)[number];

/** Document types, identified by their bytes, never by the declared type or name. */
export const DOCUMENT_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/webp"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS = 5;
/** The logo as uploaded; it is stored re-encoded as WebP within LOGO_SIZE × LOGO_SIZE pixels. */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_SIZE = 256;

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .transform((value) => (value === "" ? null : value));

/** The form fields of a request (multipart fields are strings). */
export const profileChangeFieldsSchema = z.strictObject({
  businessName: z
    .string()
    .trim()
    .min(1, "the legal name must not be empty")
    .max(200, "the legal name is at most 200 characters")
    .optional(),
  registrationNumber: optionalText("the company number", 64).optional(),
  vatNumber: optionalText("the VAT id", 32).optional(),
  address: optionalText("the address", 500).optional(),
  /** The dealer's words to the reviewer. */
  comment: z.string().trim().max(1000, "a comment is at most 1000 characters").optional(),
});
export type ProfileChangeFields = z.input<typeof profileChangeFieldsSchema>;

/** The requested values: only the fields that change. */
export const identityChangesSchema = z.strictObject({
  businessName: z.string().optional(),
  registrationNumber: z.string().nullable().optional(),
  vatNumber: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
});
export type IdentityChanges = z.infer<typeof identityChangesSchema>;

export const profileChangeFileSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(["document", "logo"]),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().min(0),
});
export type ProfileChangeFile = z.infer<typeof profileChangeFileSchema>;

export const profileChangeRequestSchema = z.strictObject({
  id: z.string(),
  userUid: z.string(),
  dealerId: z.string(),
  state: z.enum(PROFILE_CHANGE_STATES),
  changes: identityChangesSchema,
  /** The requested logo, if the request changes it. */
  logo: profileChangeFileSchema.nullable(),
  documents: z.array(profileChangeFileSchema),
  comment: z.string().nullable(),
  submittedAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedBy: z.string().nullable(),
  /** The admin's note, told to the dealer. */
  decisionNote: z.string().nullable(),
});
export type ProfileChangeRequest = z.infer<typeof profileChangeRequestSchema>;

/** The dealer's identity as it stands. */
export const businessIdentitySchema = z.strictObject({
  dealerId: z.string(),
  businessName: z.string(),
  registrationNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  address: z.string().nullable(),
  /** The approved logo's SHA-256 (its public URL: apiRoutes.dealers.logo), or null. */
  logoSha256: z.string().nullable(),
});
export type BusinessIdentity = z.infer<typeof businessIdentitySchema>;

/** `GET /users/{id}/profile-change-request`: the identity, the open request and the last decided one. */
export const profileChangeStatusSchema = z.strictObject({
  identity: businessIdentitySchema,
  open: profileChangeRequestSchema.nullable(),
  lastDecided: profileChangeRequestSchema.nullable(),
});
export type ProfileChangeStatus = z.infer<typeof profileChangeStatusSchema>;

/** `POST /users/{id}/profile-change-request/approve`: approve, or reject with a note (required). */
export const profileChangeDecisionSchema = z
  .strictObject({
    decision: z.enum(["approve", "reject"], { error: "decision must be approve or reject" }),
    note: z.string().trim().max(1000, "a note is at most 1000 characters").optional(),
    /** The request as reviewed (its submittedAt): refused with 409 if the dealer replaced it since. */
    submittedAt: z.iso.datetime({ offset: true, error: "submittedAt is the request's ISO date" }).optional(),
  })
  .superRefine((body, issues) => {
    if (body.decision === "reject" && (body.note ?? "").length < 3)
      issues.addIssue({ code: "custom", path: ["note"], message: "say why it is rejected: the dealer is told" });
  });
export type ProfileChangeDecision = z.input<typeof profileChangeDecisionSchema>;

/** `GET /profile-change-requests` (admins): the review queue, with each dealer's current identity and account. */
export const profileChangeQueueItemSchema = profileChangeRequestSchema.extend({
  identity: businessIdentitySchema,
  email: z.string().nullable(),
});
export type ProfileChangeQueueItem = z.infer<typeof profileChangeQueueItemSchema>;
export const profileChangeQueuePageSchema = listResponseSchema(profileChangeQueueItemSchema);

/** `state[eq]=open` is the review queue; oldest first by default. */
export const profileChangeRequestList = {
  sort: ["submittedAt", "decidedAt"],
  filter: ["state", "submittedAt"],
} as const;
