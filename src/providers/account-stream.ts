/**
 * The signed-in user's account events (contracts/account.ts), read from the notification stream the
 * tab has open anyway (./inbox, `GET /users/{id}/notifications/listen` sends them as `account`
 * events to the account's owner): a browser gives a host six HTTP/1.1 connections, and one stream
 * more per tab left two tabs on a vehicle page without any for their API calls. `GET
 * /users/{id}/listen` serves the same events alone, for clients without the inbox. Whatever happens to the
 * account, the server has revoked the user's refresh tokens, so the session cannot simply refresh:
 * - a role or dealer-status change carries a custom token with the new claims: signing in with it
 *   gives a new ID token, which the session follows (new role, cookie mirrored again, cached
 *   access checks and identity invalidated, so the menu changes at once); the user gets a toast
 *   with the server's message. If that sign-in fails, the session is over: signed out with the message.
 * - disabled, signed out everywhere, deleted: signed out at once, the message shown on the sign-in page.
 */
import type { AccountStreamEvent } from "../../contracts/account";
import { ACCOUNT_STREAM_EVENT } from "../../contracts/listen-streams";
import { inboxFeedOf } from "./inbox";
import type { Session } from "./session";

export interface AccountStreamActions {
  /** Signs in again with the server's custom token (the SDK's signInWithCustomToken). */
  signInWithCustomToken(token: string): Promise<void>;
  /** Ends the session and tells the user why on the sign-in page. */
  signOut(message: string): Promise<void>;
  /** Tells the signed-in user what changed (a toast). */
  notify(message: string): void;
}

/** What the app does for one event of the account stream. */
export async function reactToAccountEvent(event: AccountStreamEvent, actions: AccountStreamActions): Promise<void> {
  switch (event.reason) {
    case "role-changed":
    case "dealer-status-changed": {
      // Without a token the revoked session has no way on: the same as a failed sign-in.
      if (!event.customToken) return actions.signOut(event.message);
      try {
        await actions.signInWithCustomToken(event.customToken);
      } catch (error) {
        console.warn("Signing in with the account stream's token failed:", error);
        return actions.signOut(event.message);
      }
      actions.notify(event.message);
      return;
    }
    case "disabled":
    case "signed-out":
    case "deleted":
      return actions.signOut(event.message);
  }
}

// The event's schema, and with it the schema library, loads with the first event rather than with
// every page: every portal page opens this stream as it loads, and account events are rare.
const eventSchema = () => import("../../contracts/account").then((module) => module.accountStreamEventSchema);

function parseEvent(data: string, schema: Awaited<ReturnType<typeof eventSchema>>): AccountStreamEvent | null {
  try {
    return schema.parse(JSON.parse(data));
  } catch (error) {
    console.warn("Ignored an account event of an unknown shape:", data, error);
    return null;
  }
}

/** Listens to `userId`'s account events, keeping the session's stream open; answers the function that stops. */
export function openAccountStream(session: Session, userId: string, actions: AccountStreamActions): () => void {
  if (typeof EventSource === "undefined") return () => {};
  // One event at a time: a sign-out must not overtake the sign-in of the event before it.
  let queue: Promise<void> = Promise.resolve();
  const feed = inboxFeedOf(session);
  const stopListening = feed.on(ACCOUNT_STREAM_EVENT, (data) => {
    queue = queue
      .then(async () => {
        const event = parseEvent(data, await eventSchema());
        if (event) await reactToAccountEvent(event, actions);
      })
      .catch((error) => console.warn("Account event failed:", error));
  });
  const release = feed.retain(userId);
  return () => {
    stopListening();
    release();
  };
}
