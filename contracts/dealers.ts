/**
 * Dealers: the directory everyone may read (approved dealers, with the vehicles and firmware
 * their published tunes cover), the profile a dealer and admins see in full, and what admins
 * change: the status, with a reason the dealer is told, and the profile's fields.
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";
import { BUSINESS_IDENTITY_FIELDS, identityChangeHint } from "./profile-change-requests";
import { DEALER_STATUSES } from "./public-site";

export { DEALER_STATUSES };
export type DealerStatus = (typeof DEALER_STATUSES)[number];

/**
 * The status changes an admin may make: an application is approved or rejected, an approved
 * dealer suspended and a suspended one approved again. A rejected application stays rejected
 * (the user may apply again once the profile is removed).
 */
export const DEALER_TRANSITIONS: Readonly<Record<DealerStatus, readonly DealerStatus[]>> = {
  pending: ["approved", "rejected"],
  approved: ["suspended"],
  suspended: ["approved"],
  rejected: [],
};

export const countrySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "country is a two-letter ISO 3166 code, such as GB or DE");

/** What anyone sees of a dealer in the directory. */
export const dealerSchema = z.strictObject({
  id: z.string(),
  businessName: z.string(),
  country: z.string().nullable(),
  website: z.string().nullable(),
  status: z.enum(DEALER_STATUSES),
  /** The approved logo's SHA-256, served at apiRoutes.dealers.logo (null: none). */
  logoSha256: z.string().nullable(),
  /** The dealer's own words about their business, plain text with its line breaks (null: none). */
  about: z.string().nullable(),
  /** Firmware their published tunes are for. */
  firmwareIds: z.array(z.string()),
  /** Vehicle families (make and model) running that firmware, from the supported-vehicle catalogue. */
  vehicles: z.array(z.strictObject({ make: z.string(), model: z.string() })),
  publishedTunes: z.number().int().min(0),
  createdAt: z.iso.datetime(),
});
export type Dealer = z.infer<typeof dealerSchema>;

/** The whole profile: the dealer themself and admins. */
export const dealerProfileSchema = dealerSchema.extend({
  userUid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  address: z.string().nullable(),
  registrationNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  phone: z.string().nullable(),
  statusReason: z.string().nullable(),
  statusChangedAt: z.iso.datetime().nullable(),
  /** Custom tunes: free revisions for this many days after the first delivery. */
  freeRevisionDays: z.number().int(),
  updatedAt: z.iso.datetime(),
});
export type DealerProfile = z.infer<typeof dealerProfileSchema>;

/** `GET /dealers`: visitors and users get the directory entries, admins the whole profiles. */
export const dealerPageSchema = listResponseSchema(z.union([dealerProfileSchema, dealerSchema]));

/** `q` searches the business name and the makes and models of the vehicles a dealer tunes. */
export const dealerList = {
  sort: ["businessName", "createdAt", "country", "status"],
  filter: ["status", "country", "createdAt"],
} as const;

export const dealerStatusChangeSchema = z.strictObject({
  status: z.enum(DEALER_STATUSES, { error: `status must be one of ${DEALER_STATUSES.join(", ")}` }),
  reason: z
    .string("give a reason: the dealer is told it")
    .trim()
    .min(3, "give a reason: the dealer is told it")
    .max(1000, "a reason is at most 1000 characters"),
});
export type DealerStatusChange = z.input<typeof dealerStatusChangeSchema>;

/** `DELETE /dealers/{id}/admin` when the dealer has orders in flight: suspended, not removed (a removal answers 204). */
export const dealerRemovalSchema = z.strictObject({
  removed: z.literal(false),
  reason: z.string(),
  dealer: dealerProfileSchema,
});

/** The longest "about" text a dealer may write: a few paragraphs, read on their page. */
export const DEALER_ABOUT_MAX_LENGTH = 2000;

/**
 * `PATCH /dealers/{id}/about`: the dealer's words about their business, by the dealer themself or
 * an admin. Plain text: shown as written, line breaks kept, never read as markup. Empty or null
 * clears it. It is not part of the business identity, so it changes at once, without review.
 */
export const dealerAboutSchema = z.strictObject({
  about: z
    .string("about is text, or null to clear it")
    .trim()
    .max(DEALER_ABOUT_MAX_LENGTH, `about is at most ${DEALER_ABOUT_MAX_LENGTH} characters`)
    .nullable(),
});
export type DealerAbout = z.input<typeof dealerAboutSchema>;

const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} is at most ${max} characters`).nullable();

/**
 * `PATCH /dealers/{id}/admin`: the profile's fields an admin corrects; the status has its own route.
 * The business identity (legal name, company number, VAT id, address) is accepted as a field only
 * to be refused by name: it changes through a profile change request with its documents.
 */
export const dealerAdminPatchSchema = z
  .strictObject({
    businessName: z
      .string()
      .trim()
      .min(1, "business name must not be empty")
      .max(200, "business name is at most 200 characters"),
    country: countrySchema.nullable(),
    address: optionalText("address", 500),
    registrationNumber: optionalText("registration number", 64),
    vatNumber: optionalText("VAT number", 32),
    website: z
      .url({ protocol: /^https?$/, message: "website must be an http(s) address" })
      .max(2048)
      .nullable(),
    phone: optionalText("phone", 32),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: "send at least one field to change" })
  .superRefine((patch, issues) => {
    for (const field of BUSINESS_IDENTITY_FIELDS)
      if (field in patch) issues.addIssue({ code: "custom", path: [field], message: identityChangeHint(field) });
  });
export type DealerAdminPatch = z.input<typeof dealerAdminPatchSchema>;
