import { useEffect, useMemo, useSyncExternalStore } from "react";
import { ACCOUNT_STREAM_EVENT, notificationsPath } from "../../contracts/listen-streams";
import { InboxFeed, type InboxState, NO_INBOX } from "../lib/inbox-feed";
import { API_PREFIX } from "./data-provider";
import type { Session } from "./session";
import { useSession, useSessionState } from "./session-context";

/** The app's one notification stream per session (src/lib/inbox-feed.ts); not the toast notification provider. */
const feeds = new WeakMap<Session, InboxFeed>();

/** The session's one stream: the inbox and the account stream (./account-stream) share it. */
export function inboxFeedOf(session: Session): InboxFeed {
  let feed = feeds.get(session);
  if (!feed) {
    feed = new InboxFeed({
      url: (uid) => `${API_PREFIX}/${notificationsPath(uid)}/listen`,
      // The stream is authenticated by the session cookie alone: opened after it is set, renewed on refusal.
      session: { ready: session.mirrored, renew: session.remirror },
      // The account stream's listener (./account-stream) loads after the bell opened the stream.
      kept: [ACCOUNT_STREAM_EVENT],
    });
    feeds.set(session, feed);
  }
  return feed;
}

/** The signed-in user's unread count, live while a component uses it. */
export function useInbox(): InboxState {
  const session = useSession();
  const inboxFeed = useMemo(() => inboxFeedOf(session), [session]);
  const { user } = useSessionState();
  const uid = user?.uid ?? null;
  useEffect(() => {
    // No EventSource (server rendering, old test environments): the bell stays without a count.
    if (!uid || typeof EventSource === "undefined") return;
    return inboxFeed.retain(uid);
  }, [inboxFeed, uid]);
  const state = useSyncExternalStore(inboxFeed.subscribe, inboxFeed.snapshot, inboxFeed.snapshot);
  return state.uid === uid ? state : NO_INBOX;
}
