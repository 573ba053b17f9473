import { z } from "zod";
import { listResponseSchema } from "./list-response";

/**
 * The public site's forms (contact, demo request) and the dealer account request: one schema each,
 * used by the form (react-hook-form resolver) and by the server, so a field error reads the same.
 */

const name = z.string("Enter your name").trim().min(1, "Enter your name").max(120, "Use at most 120 characters");
const email = z
  .string("Enter your email")
  .trim()
  .min(1, "Enter your email")
  .max(254, "Use at most 254 characters")
  .pipe(z.email("That email address is not valid"));
const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`).optional();
const phone = z
  .string("Enter a phone number")
  .trim()
  .regex(/^\+?[0-9 ()-]{6,24}$/, "Enter a phone number with digits, spaces or dashes, e.g. +44 20 7946 0958");

export const contactTopics = ["vehicle-support", "tune-or-flashing", "account", "billing", "other"] as const;
export const contactTopicLabels: Record<(typeof contactTopics)[number], string> = {
  "vehicle-support": "Is my vehicle supported?",
  "tune-or-flashing": "A tune or a flash",
  account: "My account",
  billing: "Payments and refunds",
  other: "Something else",
};

export const contactRequestSchema = z.strictObject({
  name,
  email,
  topic: z.enum(contactTopics, "Choose a topic"),
  vehicle: optionalText(200),
  message: z
    .string("Write your message")
    .trim()
    .min(10, "Write at least 10 characters")
    .max(5000, "Use at most 5000 characters"),
});
export type ContactRequestInput = z.infer<typeof contactRequestSchema>;

export const demoRequestSchema = z.strictObject({
  name,
  email,
  businessName: z
    .string("Enter your business name")
    .trim()
    .min(1, "Enter your business name")
    .max(200, "Use at most 200 characters"),
  phone: phone.optional().or(z.literal("")),
  country: optionalText(100),
  platforms: optionalText(500),
  message: optionalText(5000),
});
export type DemoRequestInput = z.infer<typeof demoRequestSchema>;

export const dealerRequestSchema = z.strictObject({
  businessName: z
    .string("Enter your business name")
    .trim()
    .min(1, "Enter your business name")
    .max(200, "Use at most 200 characters"),
  address: z
    .string("Enter the business address")
    .trim()
    .min(5, "Enter the business address")
    .max(500, "Use at most 500 characters"),
  registrationNumber: z
    .string("Enter the company registration number")
    .trim()
    .min(2, "Enter the company registration number")
    .max(64, "Use at most 64 characters"),
  vatNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{0,2}[0-9A-Za-z ]{2,16}$/, "Enter the VAT number as printed on your invoices, e.g. GB123456789")
    .optional()
    .or(z.literal("")),
  website: z
    .url({ protocol: /^https?$/, message: "Enter the full address, starting with https://" })
    .max(2048)
    .optional()
    .or(z.literal("")),
  phone,
});
export type DealerRequestInput = z.infer<typeof dealerRequestSchema>;

/** What a form's create call answers: the stored request's id and time. */
export const createdRequestSchema = z.strictObject({ id: z.string(), createdAt: z.string() });

/** What the admin lists show: the request as stored (optional fields left empty are null). */
export const contactRequestRecordSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  topic: z.enum(contactTopics),
  vehicle: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactRequest = z.infer<typeof contactRequestRecordSchema>;
export const contactRequestPageSchema = listResponseSchema(contactRequestRecordSchema);

export const demoRequestRecordSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  businessName: z.string(),
  phone: z.string().nullable(),
  country: z.string().nullable(),
  platforms: z.string().nullable(),
  message: z.string().nullable(),
  createdAt: z.string(),
});
export type DemoRequest = z.infer<typeof demoRequestRecordSchema>;
export const demoRequestPageSchema = listResponseSchema(demoRequestRecordSchema);

export const DEALER_STATUSES = ["pending", "approved", "rejected", "suspended"] as const;
export const dealerProfileSummarySchema = z.strictObject({
  id: z.string(),
  businessName: z.string(),
  status: z.enum(DEALER_STATUSES),
  createdAt: z.string(),
});
export type DealerProfileSummary = z.infer<typeof dealerProfileSummarySchema>;

/** A vehicle family as the public site lists it: no firmware identifiers. */
export const publicSupportedVehicleSchema = z.strictObject({
  make: z.string(),
  model: z.string(),
  generation: z.string(),
  engine: z.string(),
  yearFrom: z.number(),
  yearTo: z.number().nullable(),
});
export type PublicSupportedVehicle = z.infer<typeof publicSupportedVehicleSchema>;
export const publicSupportedVehiclesSchema = z.strictObject({ data: z.array(publicSupportedVehicleSchema) });

/** Profile picture: what the server accepts. */
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_PICTURE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const PROFILE_PICTURE_SIZE = 256;
/** `POST /users/{id}/profile-picture`: where the new picture is served (also set as the account's photo). */
export const profilePictureAnswerSchema = z.strictObject({ photoURL: z.string() });
