/**
 * Repositories: a dealer's private collections of tunes. A tune placed in a repository is offered
 * only to the users the dealer gave access to it (customers or other dealers), never in the public
 * storefront; the dealer may let those members have its tunes at no charge. Access is per user and
 * per repository (`/users/{id}/repository-access/{repoId}`), granted and withdrawn by the
 * repository's dealer or an admin.
 */
import { z } from "zod";

const name = z.string().trim().min(1, "name must not be empty").max(80, "name is at most 80 characters");
const description = z.string().trim().max(2000, "description is at most 2000 characters");

export const repositoryCreateSchema = z.strictObject({
  name,
  description: description.default(""),
  /** Members licence its tunes without paying (a dealer's own staff, a fleet, a team). */
  freeForMembers: z.boolean().default(false),
});
export type RepositoryCreateInput = z.input<typeof repositoryCreateSchema>;

export const repositoryUpdateSchema = z
  .strictObject({ name: name.optional(), description: description.optional(), freeForMembers: z.boolean().optional() })
  .refine((value) => Object.keys(value).length > 0, { message: "send at least one field to change" });

export const repositoryMemberSchema = z.strictObject({
  userUid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  grantedAt: z.iso.datetime(),
});
export type RepositoryMember = z.infer<typeof repositoryMemberSchema>;

export const repositorySchema = z.strictObject({
  id: z.string(),
  dealerUid: z.string(),
  dealerName: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  freeForMembers: z.boolean(),
  /** Tunes placed in it (published or not). */
  tuneCount: z.number().int().min(0),
  /** The members: for its dealer and admins; others see an empty list. */
  members: z.array(repositoryMemberSchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Repository = z.infer<typeof repositorySchema>;
export const repositoryListSchema = z.strictObject({ data: z.array(repositorySchema), total: z.number().int().min(0) });

/** `POST /repositories/{id}/members`: the dealer names the member by their account's email. */
export const repositoryMemberByEmailSchema = z.strictObject({
  email: z.email("not an email address").transform((email) => email.toLowerCase()),
});

/** One repository a user may reach, as `GET /users/{id}/repository-access` lists it. */
export const repositoryAccessSchema = z.strictObject({
  repositoryId: z.string(),
  name: z.string(),
  description: z.string(),
  dealerUid: z.string(),
  dealerName: z.string().nullable(),
  freeForMembers: z.boolean(),
  /** Published tunes in it. */
  publishedTunes: z.number().int().min(0),
  grantedAt: z.iso.datetime(),
});
export type RepositoryAccess = z.infer<typeof repositoryAccessSchema>;
export const repositoryAccessListSchema = z.strictObject({
  data: z.array(repositoryAccessSchema),
  total: z.number().int().min(0),
});

/** 201 when access was given, 200 when the user already had it. */
export const repositoryGrantSchema = z.strictObject({
  repositoryId: z.string(),
  userUid: z.string(),
  created: z.boolean(),
});
