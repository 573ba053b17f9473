import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  accountPatchSchema,
  accountSchema,
  createSessionCookieSchema,
  type EmailLinkRequest,
  emailActionRequestSchema,
  emailActionSchema,
  emailLinkAcceptedSchema,
  emailLinkRequestSchema,
  sessionCookieSchema,
} from "../../contracts/account";
import { apiRoutes } from "../../contracts/api-paths";
import type { AppContext } from "../context";
import { forbidden, notFound, unauthorized } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { rateLimitOptions } from "../http/rate-limits";
import type { ZodTypeProvider } from "../http/zod";
import { accountOf, saveAccountPatch, updateIdentityUser, userRecord } from "../services/accounts";
import { isCredentialError } from "../services/identity";
import { sendPasswordReset, sendPasswordResetByEmail, sendSignInLink, sendVerification } from "../services/mail";

const idParams = z.strictObject({ id: z.string().min(1).max(128) });
/** Links asked for by address: a person asks a few times; more from one address is refused with 429. */
const EMAIL_LINK_LIMIT = { max: 5, timeWindow: "10 minutes" };

export async function authRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerAccountRoutes(plugin, ctx);
  // Asked without signing in: bounded per client address, so nobody sends a flood of email through us.
  await plugin.register(fastifyRateLimit, rateLimitOptions(ctx));
  registerAccountEmailRoutes(plugin, ctx);
  registerEmailLinkRoutes(plugin, ctx);
}

/** The caller's account, its changes, and a session cookie for its ID token. */
function registerAccountRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.identity;

  app.get(`/${apiRoutes.account.mine()}`, { schema: { response: { 200: accountSchema } } }, async (request) => {
    const caller = callerOf(request);
    return accountOf(ctx.db, await userRecord(auth, caller.uid));
  });

  app.patch(
    `/${apiRoutes.account.of(":id")}`,
    { schema: { params: idParams, body: accountPatchSchema, response: { 200: accountSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      if (id !== caller.uid) throw forbidden("You can only change your own account");
      const patch = request.body;
      const identityFields = {
        ...(patch.displayName !== undefined && { displayName: patch.displayName }),
        ...(patch.photoURL !== undefined && { photoURL: patch.photoURL }),
        ...(patch.phoneNumber !== undefined && { phoneNumber: patch.phoneNumber }),
      };
      const record =
        Object.keys(identityFields).length > 0
          ? await updateIdentityUser(auth, id, identityFields)
          : await userRecord(auth, id);
      await saveAccountPatch(ctx.db, record, patch.preferences);
      return accountOf(ctx.db, record);
    },
  );

  app.post(
    "/auth/create-session-cookie",
    { schema: { body: createSessionCookieSchema, response: { 200: sessionCookieSchema } } },
    async (request) => {
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
    },
  );
}

/** Password-reset and verification emails for a signed-in user's own account (or by an admin). */
function registerAccountEmailRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.identity;

  for (const [path, send] of [
    [apiRoutes.account.passwordResetEmail(":id"), sendPasswordReset],
    [apiRoutes.account.verificationEmail(":id"), sendVerification],
  ] as const) {
    app.post(
      `/${path}`,
      { schema: { params: idParams, body: emailActionRequestSchema.nullish(), response: { 202: emailActionSchema } } },
      async (request, reply) => {
        const caller = callerOf(request);
        const { id } = request.params;
        assertSelfOrAdmin(caller, id);
        const record = await userRecord(auth, id);
        if (!record.email) throw notFound(`An email address for user ${id}`);
        // 202 once the mail server took the message; deliver() answers 503 when it did not.
        await send(ctx, {
          email: record.email,
          displayName: record.displayName,
          continuePath: request.body?.continuePath,
        });
        return reply.status(202).send({ sent: true, email: record.email });
      },
    );
  }
}

function registerEmailLinkRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /**
   * Links asked for by address, without signing in. The answer is 202 at once, before even looking
   * the address up, and the same for every address: neither its status nor its timing tells whether
   * an account has it. The sending goes on in the background and a failure is logged.
   */
  for (const [path, send] of [
    [
      apiRoutes.account.signInLink(),
      (request: EmailLinkRequest) => sendSignInLink(ctx, { email: request.email, continuePath: request.continuePath }),
    ],
    [
      apiRoutes.account.passwordResetLink(),
      (request: EmailLinkRequest) => sendPasswordResetByEmail(ctx, request.email),
    ],
  ] as const) {
    app.post(
      `/${path}`,
      {
        config: { public: true, rateLimit: EMAIL_LINK_LIMIT },
        schema: { body: emailLinkRequestSchema, response: { 202: emailLinkAcceptedSchema } },
      },
      async (request, reply) => {
        const asked = request.body;
        ctx.mail.inBackground(
          send(asked).then(
            (sent) =>
              request.log.info(
                { path, sent },
                sent ? "email link sent" : "email link asked for an address without a usable account",
              ),
            (error: unknown) => request.log.warn({ err: error, path }, "email link not sent"),
          ),
        );
        return reply.status(202).send({ accepted: true });
      },
    );
  }
}
