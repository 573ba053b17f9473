import { type App, deleteApp, initializeApp } from "firebase-admin/app";
import { type Auth, type DecodedIdToken, getAuth } from "firebase-admin/auth";
import { type Role, roleFromClaims } from "../../contracts/account";

export interface VerifiedCaller {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  role: Role;
  claims: DecodedIdToken;
}

/**
 * Every verification goes through here so revocation is always checked: the emulator checks it
 * regardless, so emulator tests could never catch a forgotten `checkRevoked` flag.
 */
export async function verifyIdTokenChecked(auth: Pick<Auth, "verifyIdToken">, token: string): Promise<DecodedIdToken> {
  return auth.verifyIdToken(token, true);
}

export async function verifySessionCookieChecked(
  auth: Pick<Auth, "verifySessionCookie">,
  cookie: string,
): Promise<DecodedIdToken> {
  return auth.verifySessionCookie(cookie, true);
}

export function callerFrom(decoded: DecodedIdToken): VerifiedCaller {
  return {
    uid: decoded.uid,
    email: decoded.email ?? null,
    emailVerified: decoded.email_verified ?? false,
    role: roleFromClaims(decoded),
    claims: decoded,
  };
}

export interface Identity {
  auth: Auth;
  emulatorHost?: string;
  verifyIdToken(token: string): Promise<VerifiedCaller>;
  verifySessionCookie(cookie: string): Promise<VerifiedCaller>;
  /** true when the identity service answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function createIdentity(options: { projectId: string; emulatorHost?: string; name?: string }): Identity {
  if (options.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
  const app: App = initializeApp(
    { projectId: options.projectId },
    options.name ?? `portal-${Math.random().toString(36).slice(2)}`,
  );
  const auth = getAuth(app);
  return {
    auth,
    emulatorHost: options.emulatorHost,
    verifyIdToken: async (token) => callerFrom(await verifyIdTokenChecked(auth, token)),
    verifySessionCookie: async (cookie) => callerFrom(await verifySessionCookieChecked(auth, cookie)),
    ping: async () => {
      try {
        await auth.listUsers(1);
        return true;
      } catch {
        return false;
      }
    },
    close: () => deleteApp(app),
  };
}

/** Identity errors that mean "this credential is not acceptable" rather than "our dependency failed". */
export function isCredentialError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? "";
  return code.startsWith("auth/") && code !== "auth/internal-error";
}
