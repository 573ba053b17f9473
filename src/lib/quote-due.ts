/** A ticket's due date (the server's `dueAt`) as both sides read it: "6 Dec 2026". */
export function formatDueDay(dueAt: string): string {
  return new Date(dueAt).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}
