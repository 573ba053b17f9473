/**
 * Notifications are written in the transaction of the change they report, so
 * a rolled-back change tells nobody, and published once that transaction has
 * committed, so a listener never hears of a row it cannot read
 * yet; the live-event bus carries them to every instance's streams (services/live-events.ts).
 */
import { and, count, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Notification, NotificationKind } from "../../contracts/notifications";
import type { Db, Tx } from "../db/handle";
import { notifications } from "../db/schema";
import { auditChangeTo } from "./audit";
import { notFound } from "./errors";
import type { VerifiedCaller } from "./identity";
import type { LiveEventBus } from "./live-events";
import { Topics } from "./topics";

export interface NotificationInput {
  recipientUid: string;
  kind: NotificationKind;
  title: string;
  body?: string;
  /** An in-app path (contracts/notifications inAppPathSchema). */
  link?: string | null;
}

/** Records a notification to store with the transaction's other writes (all of them in one insert, at its end). */
export type Notify = (input: NotificationInput) => Promise<void>;

export type NotificationEvent = { type: "created"; notification: Notification } | { type: "read-changed" };
type Listener = (event: NotificationEvent) => void;

export const notificationToApi = (row: typeof notifications.$inferSelect): Notification => ({
  id: row.id,
  recipientUid: row.recipientUid,
  kind: row.kind,
  title: row.title,
  body: row.body,
  link: row.link,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
});

export class NotificationCenter {
  /** Each recipient's open streams. */
  private readonly streams: Topics<NotificationEvent>;
  /** Told of each committed batch (the email copies, services/mail); must not throw. */
  private readonly recordedListeners: Array<(recorded: Notification[]) => void> = [];

  constructor(
    private readonly db: Db,
    bus: LiveEventBus,
  ) {
    this.streams = new Topics(bus, "notifications");
  }

  /**
   * Runs `work` in one transaction; what it records with `notify` is stored
   * with the rest of the change and published only after the commit.
   */
  async transaction<T>(work: (tx: Tx, notify: Notify) => Promise<T>): Promise<T> {
    const recorded: Notification[] = [];
    const result = await this.db.transaction(async (tx) => {
      const inputs: NotificationInput[] = [];
      const done = await work(tx, async (input) => void inputs.push(input));
      if (inputs.length)
        recorded.push(...(await tx.insert(notifications).values(inputs).returning()).map(notificationToApi));
      return done;
    });
    for (const notification of recorded) this.publish(notification.recipientUid, { type: "created", notification });
    if (recorded.length) for (const listener of this.recordedListeners) listener(recorded);
    return result;
  }

  /** Tells the recipient's listeners (open streams) what changed; call it after the change committed. */
  publish(recipientUid: string, event: NotificationEvent): void {
    this.streams.publish(recipientUid, event);
  }

  /** Calls `listener` with the notifications of each transaction once it committed. */
  onRecorded(listener: (recorded: Notification[]) => void): void {
    this.recordedListeners.push(listener);
  }

  subscribe(recipientUid: string, listener: Listener): () => void {
    return this.streams.subscribe(recipientUid, listener);
  }

  async unreadCount(recipientUid: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.recipientUid, recipientUid), isNull(notifications.readAt)));
    return row.n;
  }
}

type Requester = { caller: VerifiedCaller | null; id: string };

/** The list's condition for one recipient's notifications. */
export const ofRecipient = (uid: string) => eq(notifications.recipientUid, uid);

/** One page of notifications, under the list's own condition and order. */
export function notificationPage(
  db: Db,
  { where, orderBy, limit, offset }: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
) {
  return db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

/**
 * Marks one of the recipient's notifications read or unread (another user's id is not found);
 * an admin changing what another user has read is audited.
 */
export async function setNotificationRead(
  db: Db,
  request: Requester,
  uid: string,
  notificationId: string,
  read: boolean,
) {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ readAt: notifications.readAt })
      .from(notifications)
      .where(and(eq(notifications.id, notificationId), eq(notifications.recipientUid, uid)))
      .for("update");
    if (!current) throw notFound(`Notification ${notificationId}`);
    const [updated] = await tx
      .update(notifications)
      // Marking a read one read again keeps when it was first read.
      .set({ readAt: read ? sql`coalesce(${notifications.readAt}, now())` : null })
      .where(and(eq(notifications.id, notificationId), eq(notifications.recipientUid, uid)))
      .returning();
    // An admin changing what another user has read (anyone's own clicks, an admin's too, are not audited).
    if (uid !== request.caller?.uid)
      await auditChangeTo(tx, request, uid, {
        action: "notification.read-changed",
        targetType: "notification",
        targetId: notificationId,
        before: { read: current.readAt !== null },
        after: { read },
      });
    return updated;
  });
}

/** Marks every unread notification of the recipient read; returns the ids marked. */
export async function markAllNotificationsRead(db: Db, request: Requester, uid: string) {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(and(eq(notifications.recipientUid, uid), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (marked.length > 0 && uid !== request.caller?.uid) {
      await auditChangeTo(tx, request, uid, {
        action: "notification.all-marked-read",
        targetType: "user",
        targetId: uid,
        after: { notificationIds: marked.map((row) => row.id) },
      });
    }
    return marked;
  });
}
