import { useLogout } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { signOutNotice } from "../lib/sign-out-notice";
import { type AccountStreamActions, openAccountStream } from "../providers/account-stream";
import { notificationProvider } from "../providers/notification-provider";
import { useSession, useSessionState } from "../providers/session-context";

/**
 * Keeps the signed-in user's account stream open (src/providers/account-stream.ts): a role
 * change elsewhere reaches this tab at once, a disabled account is signed out at once.
 */
export function AccountStreamListener() {
  const session = useSession();
  const uid = useSessionState().user?.uid ?? null;
  const queryClient = useQueryClient();
  const { mutateAsync: logout } = useLogout();
  // The latest logout without reopening the stream each render.
  const logoutRef = useRef(logout);
  logoutRef.current = logout;

  useEffect(() => {
    if (!uid) return;
    const actions: AccountStreamActions = {
      async signInWithCustomToken(token) {
        const { auth, signInWithCustomToken } = await session.identity();
        await signInWithCustomToken(auth, token);
        // The session follows the new token (role, access checks, menu). Whatever the pages fetched
        // under the old role (the account, lists) is fetched again once the cookie has the new one too.
        await session.mirrored();
        await queryClient.invalidateQueries();
      },
      async signOut(message) {
        signOutNotice.show(message);
        // Refine's logout: the SDK signs out, the query cache is cleared, the sign-in page opens.
        await logoutRef.current();
      },
      notify(message) {
        notificationProvider.open?.({
          key: "account-changed",
          type: "success",
          message: "Your account has changed",
          description: message,
        });
      },
    };
    return openAccountStream(session, uid, actions);
  }, [session, uid, queryClient]);
  return null;
}
