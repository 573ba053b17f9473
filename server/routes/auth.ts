import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { accountPatchSchema, accountSchema, createSessionCookieSchema, emailActionSchema, sessionCookieSchema } from "../../contracts/account";
import type { AppContext } from "../context";
import { users } from "../db/schema";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { accountOf } from "../services/accounts";
import { isCredentialError } from "../services/identity";
import type { ZodTypeProvider } from "../http/zod";
import { apiRoutes } from "../../contracts/api-paths";

const idParams = z.strictObject({ id: z.string().min(1).max(128) });

export async function authRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.identity;

  async function userRecord(uid: string) {
    try {
      return await auth.getUser(uid);
    } catch (error) {
      if ((error as { code?: string }).code === "auth/user-not-found") throw notFound(`User ${uid}`);
      throw error;
    }
  }

  async function updateIdentityUser(uid: string, fields: Parameters<typeof auth.updateUser>[1]) {
    try {
      return await auth.updateUser(uid, fields);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "auth/phone-number-already-exists") {
        throw conflict("That phone number belongs to another account", [{ path: "phoneNumber", message: "Used by another account" }]);
      }
      if (code === "auth/invalid-phone-number" || code === "auth/invalid-photo-url" || code === "auth/invalid-display-name") {
        throw badRequest("Invalid body", (error as Error).message);
      }
      throw error;
    }
  }

  app.get(`/${apiRoutes.account.mine()}`, { schema: { response: { 200: accountSchema } } }, async (request) => {
    const caller = callerOf(request);
    return accountOf(ctx.db, await userRecord(caller.uid));
  });

  app.patch(`/${apiRoutes.account.of(":id")}`, { schema: { params: idParams, body: accountPatchSchema, response: { 200: accountSchema } } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params;
    if (id !== caller.uid) throw forbidden("You can only change your own account");
    const patch = request.body;
    const identityFields = {
      ...(patch.displayName !== undefined && { displayName: patch.displayName }),
      ...(patch.photoURL !== undefined && { photoURL: patch.photoURL }),
      ...(patch.phoneNumber !== undefined && { phoneNumber: patch.phoneNumber }),
    };
    const record = Object.keys(identityFields).length > 0 ? await updateIdentityUser(id, identityFields) : await userRecord(id);
    await ctx.db
      .update(users)
      .set({
        displayName: record.displayName ?? null,
        photoUrl: record.photoURL ?? null,
        phoneNumber: record.phoneNumber ?? null,
        ...(patch.preferences && { preferences: sql`${users.preferences} || ${JSON.stringify(patch.preferences)}::jsonb` }),
        updatedAt: new Date(),
      })
      .where(eq(users.uid, id));
    return accountOf(ctx.db, record);
  });

  app.post("/auth/create-session-cookie", { schema: { body: createSessionCookieSchema, response: { 200: sessionCookieSchema } } }, async (request) => {
    const caller = callerOf(request);
    const { idToken, expiresIn = 5 * 24 * 60 * 60 * 1000 } = request.body;
    try {
      const decoded = await ctx.identity.verifyIdToken(idToken);
      if (decoded.uid !== caller.uid) throw forbidden("The ID token belongs to another user");
      const sessionCookie = await auth.createSessionCookie(idToken, { expiresIn });
      return { sessionCookie, expiresAt: new Date(Date.now() + expiresIn).toISOString() };
    } catch (error) {
      if (isCredentialError(error)) throw unauthorized("The ID token is not valid");
      throw error;
    }
  });

  for (const [action, generate] of [
    ["password-reset", (email: string) => auth.generatePasswordResetLink(email)],
    ["verification", (email: string) => auth.generateEmailVerificationLink(email)],
  ] as const) {
    app.post(`/auth/email/:id/${action}`, { schema: { params: idParams, response: { 202: emailActionSchema } } }, async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params;
      assertSelfOrAdmin(caller, id);
      const record = await userRecord(id);
      if (!record.email) throw notFound(`An email address for user ${id}`);
      const link = await generate(record.email);
      // No mail server locally. The link's code is a credential: the log shows the link with it
      // redacted (server/http/log-redaction.ts); the Auth emulator lists the whole link (README).
      request.log.info({ to: record.email, action, link }, `email action link made for ${record.email}`);
      return reply.status(202).send({ sent: true, email: record.email });
    });
  }
}
