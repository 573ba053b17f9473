import type { AuthProvider } from "@refinedev/core";
import type { QueryClient } from "@tanstack/react-query";
import { identityErrorMessage } from "../lib/identity-errors";
import type { Session } from "./session";

/** Where to go after signing in: the `to` the guard recorded, if it is a path of ours. */
export function safeRedirect(to: unknown, fallback = "/dashboard"): string {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//") ? to : fallback;
}

export type SignInResult =
  | { success: true; redirectTo: string }
  | { success: false; error: { name: string; message: string } };

/** Signs in with email and password (loading the identity SDK); the refusal in words a person can act on. */
export async function signIn(
  session: Session,
  { email, password, to }: { email: string; password: string; to?: string },
): Promise<SignInResult> {
  try {
    const { auth, signInWithEmailAndPassword } = await session.identity();
    await signInWithEmailAndPassword(auth, email, password);
    return { success: true, redirectTo: safeRedirect(to) };
  } catch (error) {
    return { success: false, error: { name: "Sign-in failed", message: identityErrorMessage(error) } };
  }
}

/** Signing in and out load the identity SDK (session.identity()); checks read the session only. */
export function createAuthProvider(session: Session, queryClient: QueryClient): AuthProvider {
  return {
    login: (values: { email: string; password: string; to?: string }) => signIn(session, values),

    async logout() {
      const { auth, signOut } = await session.identity();
      await signOut(auth);
      // The next person in this tab must see nothing of the last one.
      queryClient.clear();
      return { success: true, redirectTo: "/login" };
    },

    async check() {
      const state = await session.ready();
      return state.user ? { authenticated: true } : { authenticated: false, redirectTo: "/login", logout: false };
    },

    async onError(error) {
      // The http client already refreshed the token and replayed once: a 401 now means the session is gone.
      if (error?.statusCode === 401) return { logout: true, redirectTo: "/login", error };
      return {};
    },

    async getIdentity() {
      const { user } = await session.ready();
      if (!user) return null;
      return {
        uid: user.uid,
        displayName: user.displayName,
        photoURL: user.photoURL,
        email: user.email,
        emailVerified: user.emailVerified,
        phoneNumber: user.phoneNumber,
        tenantId: user.tenantId,
        providerData: user.providerData,
        creationTime: user.metadata.creationTime ?? null,
        lastSignInTime: user.metadata.lastSignInTime ?? null,
        isAnonymous: user.isAnonymous,
        // Refine's header shows `name` and `avatar`.
        name: user.displayName ?? user.email,
        avatar: user.photoURL ?? undefined,
      };
    },

    async getPermissions() {
      const state = await session.ready();
      return state.role;
    },
  };
}
