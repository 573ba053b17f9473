import { afterEach, describe, expect, it } from "vitest";
import { warmUpLocaleData } from "../../../src/lib/locale-warm-up";

const Original = Intl.DateTimeFormat;
afterEach(() => void (Intl.DateTimeFormat = Original));

describe("loading the locale's date data early", () => {
  it("makes a date format in the task it is given, not in the caller's", () => {
    let made = 0;
    Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof Original>) {
      made += 1;
      return new Original(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    const tasks: Array<() => void> = [];
    warmUpLocaleData((callback) => tasks.push(callback));
    expect(made).toBe(0);
    expect(tasks).toHaveLength(1);
    tasks[0]();
    expect(made).toBe(1);
  });
});
