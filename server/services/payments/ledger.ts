/**
 * The ledger of a user's money movements: the rows the provider's events wrote and admins'
 * adjustments, read as pages with balances per currency or whole as CSV.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { LedgerEntry } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import { ledgerEntries, users } from "../../db/schema";
import { actorFrom, writeAudit } from "../audit";
import { NotFoundRefusal } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";

export type LedgerRow = typeof ledgerEntries.$inferSelect;

export const ledgerToApi = (row: LedgerRow): LedgerEntry => ({
  id: row.id,
  userUid: row.userUid,
  orderId: row.orderId,
  eventId: row.eventId,
  kind: row.kind,
  amountCents: row.amountCents,
  currency: row.currency,
  description: row.description,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

/** A page of the user's movements and their balances per currency. */
export async function ledgerPageOf<Page extends { data: LedgerRow[] }>(
  ctx: AppContext,
  userUid: string,
  list: Lister<LedgerRow, Page>,
): Promise<Omit<Page, "data"> & { data: LedgerEntry[]; balances: { currency: string; amountCents: number }[] }> {
  const { db } = ctx;
  const scope = eq(ledgerEntries.userUid, userUid);
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(ledgerEntries)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  const balances = await db
    .select({
      currency: ledgerEntries.currency,
      amountCents: sql<number>`sum(${ledgerEntries.amountCents})::bigint`,
    })
    .from(ledgerEntries)
    .where(scope)
    .groupBy(ledgerEntries.currency)
    .orderBy(ledgerEntries.currency);
  return {
    ...page,
    data: page.data.map(ledgerToApi),
    balances: balances.map((b) => ({ currency: b.currency, amountCents: Number(b.amountCents) })),
  };
}

/**
 * An admin adjusts a user's balance: one ledger row with the reason the user reads and who made
 * it, its audit row and the user's notification, in one transaction.
 */
export async function adjustBalance(
  ctx: AppContext,
  asker: { caller: VerifiedCaller; id: string },
  userUid: string,
  adjustment: { amountCents: number; currency: string; reason: string },
): Promise<LedgerEntry> {
  const { amountCents, currency, reason } = adjustment;
  const [user] = await ctx.db.select({ uid: users.uid }).from(users).where(eq(users.uid, userUid));
  if (!user) throw new NotFoundRefusal(`User ${userUid}`);
  const row = await ctx.notifications.transaction(async (tx, notify) => {
    const [made] = await tx
      .insert(ledgerEntries)
      .values({
        userUid: user.uid,
        eventId: `adjustment-${randomUUID()}`,
        kind: "adjustment",
        amountCents,
        currency,
        description: `Adjustment: ${reason}`,
        createdBy: asker.caller.uid,
      })
      .returning();
    await writeAudit(tx, actorFrom(asker), {
      action: "ledger.adjusted",
      targetType: "ledger-entry",
      targetId: String(made.id),
      subjectUid: user.uid,
      after: { amountCents, currency, reason },
    });
    await notify({
      recipientUid: user.uid,
      kind: "ledger.adjusted",
      title: `Your balance was adjusted by ${(amountCents / 100).toFixed(2)} ${currency}`,
      body: reason,
      link: "/my-tunes",
    });
    return made;
  });
  return ledgerToApi(row);
}

/** Every movement of the user, oldest first. */
async function ledgerRowsOf(ctx: AppContext, userUid: string): Promise<LedgerRow[]> {
  return ctx.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userUid, userUid))
    .orderBy(ledgerEntries.createdAt, ledgerEntries.id);
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // A cell starting with = + - @ is a formula to a spreadsheet: text gets a leading apostrophe; numbers stay numbers.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** Every movement of the user as CSV, oldest first, for a spreadsheet or an accountant. */
export async function ledgerCsvOf(ctx: AppContext, userUid: string): Promise<string> {
  const rows = await ledgerRowsOf(ctx, userUid);
  const header = ["date", "kind", "description", "amount", "currency", "order", "event"].join(",");
  const lines = rows.map((row) =>
    [
      row.createdAt.toISOString(),
      row.kind,
      row.description,
      (row.amountCents / 100).toFixed(2),
      row.currency,
      row.orderId,
      row.eventId,
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[header, ...lines].join("\r\n")}\r\n`;
}
