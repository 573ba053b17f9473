/**
 * The first date format on a page loads the locale's data, long enough on a phone to count as
 * blocking, added to whichever task
 * formats a date first (uPlot makes a number formatter when its module is evaluated; the dashboard
 * formats its last flash and recent logs as they render). Loaded early, in tasks of their own, it
 * blocks nothing else, and later formatters reuse the data.
 *
 * It is loaded in three steps, a task each, because ICU's first formatter does three loads that a
 * browser measures apart (Chromium, each step first in a fresh tab): the likely-subtags table that every locale is resolved through, the list of locales
 * with data, which each formatter negotiates its locale against, and the date formatter itself
 * (calendar, patterns, the host's time zone). As one task it counted as blocking time on a phone;
 * split, each step stays under the 50 ms that a 4× slower CPU turns into a long task.
 */
const STEPS: ReadonlyArray<(language: string) => unknown> = [
  (language) => new Intl.Locale(language).maximize(),
  (language) => Intl.DateTimeFormat.supportedLocalesOf(language),
  () => new Intl.DateTimeFormat().resolvedOptions(),
];

/**
 * Loads the locale's data in the tasks `schedule` runs callbacks in, one step each, never in the
 * caller's; resolves after the last. What formats next should wait for it: a module that makes a
 * formatter as it is evaluated, run between two steps, would do the remaining loads in its own task.
 */
export function warmUpLocaleData(
  schedule: (callback: () => void) => unknown,
  language: string = navigator.language,
): Promise<void> {
  return new Promise((resolve) => {
    const step = (index: number) => {
      STEPS[index]!(language);
      if (index + 1 < STEPS.length) schedule(() => step(index + 1));
      else resolve();
    };
    schedule(() => step(0));
  });
}
