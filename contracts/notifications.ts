/**
 * Notifications: what the portal tells a user about their own things. The
 * shapes the API answers, the one body it accepts (`{ read }`), the list fields
 * `GET /users/{id}/notifications` allows, and the events of
 * `GET /users/{id}/notifications/listen` (Server-Sent Events).
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";

/** `<subject>.<what happened>`: the app may pick an icon by subject. */
export const NOTIFICATION_KINDS = [
  "support-request.investigating",
  "support-request.supported",
  "support-request.rejected",
  "dealer.approved",
  "dealer.rejected",
  "dealer.suspended",
  "order.paid",
  "order.refunded",
  "repository.granted",
  "repository.withdrawn",
  "tuning-request.changed",
  "tuning-request.message",
  "tuning-request.due-soon",
  "tuning-request.late",
  "ledger.adjusted",
  "account.role-changed",
  "profile-change.approved",
  "profile-change.rejected",
  "format-request.supported",
  "format-request.declined",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A path inside the portal: one leading slash, so it can never point at another site. */
export const inAppPathSchema = z
  .string()
  .regex(/^\/(?![/\\])\S*$/, "a link is a path inside the portal, such as /my-tunes");

export const notificationSchema = z.strictObject({
  id: z.string(),
  recipientUid: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  link: inAppPathSchema.nullable(),
  createdAt: z.iso.datetime(),
  /** null while unread. */
  readAt: z.iso.datetime().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /users/{id}/notifications`: a page, with the recipient's unread count. */
export const notificationPageSchema = listResponseSchema(notificationSchema).extend({
  totalEstimated: z.boolean(),
  /** The recipient's unread notifications, whatever the page's filter. */
  unreadCount: z.number().int().min(0),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationUpdateSchema = z.strictObject({ read: z.boolean({ error: "read must be true or false" }) });
export type NotificationUpdate = z.infer<typeof notificationUpdateSchema>;

/** `unread[eq]=true` lists only unread ones; newest first unless `sort=createdAt`. */
export const notificationList = {
  sort: ["createdAt"],
  filter: ["unread", "createdAt"],
} as const;

/** What `POST /users/{id}/notifications/mark-all-read` answers. */
export const markAllReadResultSchema = z.strictObject({
  updated: z.number().int().min(0),
  unreadCount: z.number().int().min(0),
});
export type MarkAllReadResult = z.infer<typeof markAllReadResultSchema>;

// The listen stream's events and the inbox's path are in ./listen-streams, without zod (the app opens the stream as a page loads).
export { NOTIFICATION_EVENTS, notificationsPath, type UnreadEvent } from "./listen-streams";
