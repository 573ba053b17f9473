import type { FastifyInstance } from "fastify";
import { type SessionResponse, sessionRequestSchema, sessionResponseSchema } from "../../contracts/account";
import type { AppContext } from "../context";
import { unauthorized } from "../errors";
import { SESSION_COOKIE } from "../http/auth";
import type { ZodTypeProvider } from "../http/zod";
import { isCredentialError } from "../services/identity";

const SESSION_LIFETIME_MS = 5 * 24 * 60 * 60 * 1000;

/** POST /api/__session: mirrors the SPA's sign-in state into an httpOnly cookie. */
export async function sessionRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.post(
    "/__session",
    { config: { public: true }, schema: { body: sessionRequestSchema, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const { token } = request.body;
      const cookieOptions = {
        path: "/",
        httpOnly: true,
        sameSite: "strict" as const,
        secure: request.protocol === "https",
      };
      if (token === null) {
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
        return { user: null, expiresAt: null } satisfies SessionResponse;
      }
      let caller: Awaited<ReturnType<typeof ctx.identity.verifyIdToken>>;
      try {
        caller = await ctx.identity.verifyIdToken(token);
      } catch (error) {
        if (isCredentialError(error)) throw unauthorized("The token is not valid; sign in again");
        throw error;
      }
      await ctx.users.mirror(caller);
      const cookie = await ctx.identity.auth.createSessionCookie(token, { expiresIn: SESSION_LIFETIME_MS });
      const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
      reply.setCookie(SESSION_COOKIE, cookie, { ...cookieOptions, expires: expiresAt });
      return {
        user: { uid: caller.uid, email: caller.email, role: caller.role },
        expiresAt: expiresAt.toISOString(),
      } satisfies SessionResponse;
    },
  );
}
