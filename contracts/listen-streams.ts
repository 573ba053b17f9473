/**
 * What the app needs of the Server-Sent Events streams before any schema: the event names and the
 * inbox's path. Without zod, since every portal page opens the inbox's stream as it loads and zod
 * builds every schema of a module when it is imported (./notifications and ./account have the
 * schemas, and re-export these).
 */

/**
 * Events on `GET /users/{id}/notifications/listen`: `unread` first on connecting and after every
 * change of the count, `notification` for each new one (then `unread`).
 */
export const NOTIFICATION_EVENTS = { notification: "notification", unread: "unread" } as const;
export interface UnreadEvent {
  unreadCount: number;
}

/** The API path of a user's notifications, under /api/v1. */
export const notificationsPath = (uid: string) => `users/${encodeURIComponent(uid)}/notifications`;

/**
 * The account's events (`GET /users/{id}/listen`, and to the account's owner on the notification
 * stream): what happened to the account, shaped by `accountStreamEventSchema` in ./account.
 */
export const ACCOUNT_STREAM_EVENT = "account";
