/**
 * A user's notifications (written by server/services/notifications.ts):
 * `GET /users/{id}/notifications` (list query, newest first, `unread[eq]=true`,
 * with the unread count), `PATCH …/{notificationId}` (`{ read }`),
 * `POST …/mark-all-read`, and `GET …/listen`, a Server-Sent Events stream of
 * new notifications and the unread count. The browser's EventSource cannot
 * send a bearer token; the session cookie (`POST /api/__session`) authenticates
 * that GET like any other. Like every `/users/{id}` path, a user acts on their
 * own and an admin on anyone's; another user's notification id is not found.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { ACCOUNT_STREAM_EVENT } from "../../contracts/account";
import {
  type MarkAllReadResult,
  markAllReadResultSchema,
  NOTIFICATION_EVENTS,
  type NotificationPage,
  notificationList,
  notificationPageSchema,
  notificationSchema,
  notificationUpdateSchema,
  type UnreadEvent,
} from "../../contracts/notifications";
import type { AppContext } from "../context";
import { notifications } from "../db/schema";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { EVENT_STREAM } from "../http/media";
import type { ZodTypeProvider } from "../http/zod";
import {
  markAllNotificationsRead,
  type NotificationEvent,
  notificationPage,
  notificationToApi,
  ofRecipient,
  setNotificationRead,
} from "../services/notifications";

const PATH = "/users/:id/notifications";
const userParams = z.strictObject({ id: z.string().min(1).max(128) });
const itemParams = userParams.extend({ notificationId: z.uuid("notificationId must be a UUID") });

const listSpec: ListSpec = {
  table: notifications,
  id: notifications.id,
  allowed: notificationList,
  fields: {
    // `(read_at IS NULL) = true` folds to the partial index's own predicate.
    unread: { column: sql`(${notifications.readAt} IS NULL)`, kind: "boolean" },
    createdAt: { column: notifications.createdAt, kind: "timestamp" },
  },
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

export async function notificationRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const center = ctx.notifications;
  const streams = new EventStreams(plugin);

  /** The user the path names, once the caller may act for them. */
  function recipientOf(request: FastifyRequest, id: string): string {
    assertSelfOrAdmin(callerOf(request), id);
    return id;
  }

  app.get(
    PATH,
    { config: { list: listSpec }, schema: { params: userParams, response: { 200: notificationPageSchema } } },
    async (request): Promise<NotificationPage> => {
      const uid = recipientOf(request, request.params.id);
      const query = listQueryOf(request, listSpec);
      const [page, unreadCount] = await Promise.all([
        runList(ctx.db, listSpec, query, (page) => notificationPage(ctx.db, page), ofRecipient(uid)),
        center.unreadCount(uid),
      ]);
      return { ...page, data: page.data.map(notificationToApi), unreadCount };
    },
  );

  app.patch(
    `${PATH}/:notificationId`,
    { schema: { params: itemParams, body: notificationUpdateSchema, response: { 200: notificationSchema } } },
    async (request) => {
      const uid = recipientOf(request, request.params.id);
      const { notificationId } = request.params;
      const { read } = request.body;
      const row = await setNotificationRead(ctx.db, request, uid, notificationId, read);
      center.publish(uid, { type: "read-changed" });
      return notificationToApi(row);
    },
  );

  app.post(
    `${PATH}/mark-all-read`,
    { schema: { params: userParams, response: { 200: markAllReadResultSchema } } },
    async (request): Promise<MarkAllReadResult> => {
      const uid = recipientOf(request, request.params.id);
      const updated = await markAllNotificationsRead(ctx.db, request, uid);
      if (updated.length > 0) center.publish(uid, { type: "read-changed" });
      return { updated: updated.length, unreadCount: await center.unreadCount(uid) };
    },
  );

  app.get(
    `${PATH}/listen`,
    { config: { media: EVENT_STREAM }, handlerTimeout: streams.handlerTimeoutMs, schema: { params: userParams } },
    async (request, reply) => {
      const uid = recipientOf(request, request.params.id);
      const stream = streams.start(reply);
      // One event at a time, in order: a count read later is never sent before one read earlier.
      let queue = Promise.resolve();
      const enqueue = (work: () => Promise<void>) => {
        queue = queue
          .then(work)
          .catch((error: unknown) => request.log.warn({ err: error }, "notification stream update failed"));
      };
      const sendUnread = async () =>
        stream.send(NOTIFICATION_EVENTS.unread, { unreadCount: await center.unreadCount(uid) } satisfies UnreadEvent);
      // Subscribed before the first count, so nothing committed in between is missed.
      const unsubscribe = center.subscribe(uid, (event: NotificationEvent) =>
        enqueue(async () => {
          if (event.type === "created") stream.send(NOTIFICATION_EVENTS.notification, event.notification);
          await sendUnread();
        }),
      );
      stream.onClose(unsubscribe);
      // The account's own events (contracts/account.ts) go to its owner on this stream too: the app
      // keeps one stream per tab, since a browser opens at most six connections to a host.
      if (callerOf(request).uid === uid)
        stream.onClose(ctx.accountEvents.subscribe(uid, (event) => stream.send(ACCOUNT_STREAM_EVENT, event)));
      enqueue(sendUnread);
      return reply;
    },
  );
}
