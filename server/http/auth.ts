import type { FastifyInstance, FastifyRequest } from "fastify";
import { satisfiesRole } from "../../contracts/access";
import type { Role } from "../../contracts/account";
import { forbidden, HttpError, unauthorized } from "../errors";
import { type Identity, isCredentialError, type VerifiedCaller } from "../services/identity";
import type { UserMirror } from "../services/users";

declare module "fastify" {
  interface FastifyRequest {
    caller: VerifiedCaller | null;
  }
  interface FastifyContextConfig {
    /** No bearer token needed (health). */
    public?: boolean;
    /** A public route that answers more to a signed-in caller: a bearer token, when sent, is verified (401 if invalid). */
    optionalCaller?: boolean;
    /** Least role the route needs; admins pass dealer routes. */
    role?: Role;
  }
}

export const SESSION_COOKIE = "__session";

/** The caller of a route that is not public: authentication has already run. */
export function callerOf(request: FastifyRequest): VerifiedCaller {
  if (!request.caller) throw unauthorized("Sign in first");
  return request.caller;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must be 'Bearer <ID token>'");
  return match[1];
}

async function authenticate(request: FastifyRequest, identity: Identity): Promise<VerifiedCaller> {
  const token = bearerToken(request);
  // The httpOnly session cookie lets plain links (downloads) work; SameSite=Strict keeps it off cross-site requests.
  const cookie = request.method === "GET" || request.method === "HEAD" ? request.cookies?.[SESSION_COOKIE] : undefined;
  if (!token && !cookie) throw unauthorized("Missing bearer token");
  try {
    return token ? await identity.verifyIdToken(token) : await identity.verifySessionCookie(cookie!);
  } catch (error) {
    if (!isCredentialError(error)) throw error;
    const code = (error as { code: string }).code;
    const reasons: Record<string, string> = {
      "auth/id-token-expired": "The ID token has expired; refresh it and retry",
      "auth/id-token-revoked": "The session was revoked; sign in again",
      "auth/session-cookie-expired": "The session has expired; sign in again",
      "auth/session-cookie-revoked": "The session was revoked; sign in again",
      "auth/user-disabled": "This account is disabled",
      "auth/user-not-found": "This account no longer exists",
    };
    throw unauthorized(reasons[code] ?? "The token is not valid for this project");
  }
}

export function installAuthentication(app: FastifyInstance, identity: Identity, users: UserMirror): void {
  app.decorateRequest("caller", null);
  app.addHook("onRequest", async (request) => {
    const config = request.routeOptions.config;
    // Unknown paths answer 404 through the not-found handler, whatever the credentials.
    if (!request.routeOptions.url) return;
    if (config.public) {
      if (config.optionalCaller && request.headers.authorization) {
        request.caller = await authenticate(request, identity);
        await users.mirror(request.caller);
      }
      return;
    }
    const caller = await authenticate(request, identity);
    request.caller = caller;
    await users.mirror(caller);
    if (config.role && !satisfiesRole(caller.role, config.role)) {
      throw forbidden(`This needs the ${config.role} role`);
    }
  });
}

export function assertSelfOrAdmin(caller: VerifiedCaller, uid: string): void {
  if (caller.uid !== uid && caller.role !== "admin") {
    throw new HttpError(403, "Forbidden", "You can only act on your own account");
  }
}
