import { describe, expect, it } from "vitest";
import { formatDueDay, quoteDueAt } from "../../../../src/lib/quote-due";

describe("a quote's due date", () => {
  it("is the quote's time plus the days it takes", () => {
    const quote = { quotedAt: "2026-12-02T10:00:00.000Z", expectedDays: 4 };
    expect(quoteDueAt(quote).toISOString()).toBe("2026-12-06T10:00:00.000Z");
    expect(formatDueDay(quote)).toBe("6 Dec 2026");
  });
});
