import { useEffect, useSyncExternalStore } from "react";
import { notificationsPath } from "../../contracts/notifications";
import { InboxFeed, type InboxState, NO_INBOX } from "../lib/inbox-feed";
import { API_PREFIX } from "./data-provider";
import { useSessionState } from "./session-context";

/** The app's one notification stream (src/lib/inbox-feed.ts); not the toast notification provider. */
const inboxFeed = new InboxFeed({ url: (uid) => `${API_PREFIX}/${notificationsPath(uid)}/listen` });

/** The signed-in user's unread count, live while a component uses it. */
export function useInbox(): InboxState {
  const { user } = useSessionState();
  const uid = user?.uid ?? null;
  useEffect(() => {
    // No EventSource (server rendering, old test environments): the bell stays without a count.
    if (!uid || typeof EventSource === "undefined") return;
    return inboxFeed.retain(uid);
  }, [uid]);
  const state = useSyncExternalStore(inboxFeed.subscribe, inboxFeed.snapshot);
  return state.uid === uid ? state : NO_INBOX;
}
