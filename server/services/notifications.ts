/**
 * Notifications are written in the transaction of the change they report, so
 * a rolled-back change tells nobody, and published in process once that
 * transaction has committed, so a listener never hears of a row it cannot read
 * yet. One process serves the portal; a second one would need the database to
 * carry the publish (LISTEN/NOTIFY) instead of this fan-out.
 */
import { and, count, eq, isNull } from "drizzle-orm";
import type { Notification, NotificationKind } from "../../contracts/notifications";
import type { Db, Tx } from "../db/handle";
import { notifications } from "../db/schema";
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
  private readonly streams = new Topics<NotificationEvent>();
  /** Told of each committed batch (the email copies, services/mail); must not throw. */
  private readonly recordedListeners: Array<(recorded: Notification[]) => void> = [];

  constructor(private readonly db: Db) {}

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
