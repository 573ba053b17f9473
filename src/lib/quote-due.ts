/** When a quoted custom tune is due: the quote's time plus the days the dealer said it takes. */
const DAY_MS = 24 * 60 * 60 * 1000;

export function quoteDueAt(quote: { quotedAt: string; expectedDays: number }): Date {
  return new Date(new Date(quote.quotedAt).getTime() + quote.expectedDays * DAY_MS);
}

/** The due day as both sides read it: "6 Dec 2026". */
export function formatDueDay(quote: { quotedAt: string; expectedDays: number }): string {
  return quoteDueAt(quote).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}
