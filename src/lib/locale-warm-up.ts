/**
 * The first date format on a page loads the locale's data: ~20 ms of an unthrottled CPU here (Node
 * measures the same), 80 ms on a phone, added to whichever task formats a date first (uPlot makes a
 * formatter when its module is evaluated; the dashboard formats its last flash and recent logs as
 * they render). Made once in a task of its own early in the load, it blocks nothing else, and later
 * formatters reuse the data.
 */
export function warmUpLocaleData(schedule: (callback: () => void) => unknown): void {
  schedule(() => void new Intl.DateTimeFormat().resolvedOptions());
}
