import { afterEach, describe, expect, it, vi } from "vitest";
import { warmUpLocaleData } from "../../../../src/lib/locale-warm-up";

afterEach(() => vi.restoreAllMocks());

describe("loading the locale's date data early", () => {
  it("loads it in three tasks of its own, in the order a first date format would, none in the caller's task", () => {
    const loads: string[] = [];
    vi.spyOn(Intl.Locale.prototype, "maximize").mockImplementation(function (this: Intl.Locale) {
      loads.push(`likely subtags of ${this.baseName}`);
      return this;
    });
    vi.spyOn(Intl.DateTimeFormat, "supportedLocalesOf").mockImplementation((locales) => {
      loads.push(`locales with data, for ${String(locales)}`);
      return [];
    });
    vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(() => {
      loads.push("a date format");
      return {} as Intl.ResolvedDateTimeFormatOptions;
    });
    const tasks: Array<() => void> = [];
    warmUpLocaleData((callback) => tasks.push(callback), "de-DE");
    expect(loads).toEqual([]);

    const ran: string[][] = [];
    for (let task = 0; task < tasks.length; task++) {
      const before = loads.length;
      tasks[task]!();
      ran.push(loads.slice(before));
    }
    expect(ran).toEqual([["likely subtags of de-DE"], ["locales with data, for de-DE"], ["a date format"]]);
  });

  it("answers once the last step has run, so that what formats next can wait for it", async () => {
    const tasks: Array<() => void> = [];
    let done = false;
    const warmed = warmUpLocaleData((callback) => tasks.push(callback), "en-GB").then(() => void (done = true));
    tasks.shift()!();
    tasks.shift()!();
    await Promise.resolve();
    expect(done).toBe(false);
    tasks.shift()!();
    await warmed;
    expect(done).toBe(true);
  });

  it("leaves a real date format working afterwards", () => {
    const tasks: Array<() => void> = [];
    warmUpLocaleData((callback) => tasks.push(callback), "en-GB");
    while (tasks.length > 0) tasks.shift()!();
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "UTC" }).format(new Date(Date.UTC(2026, 10, 29)))).toBe(
      "29/11/2026",
    );
  });
});
