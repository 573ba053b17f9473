import { describe, expect, it } from "vitest";
import { isLate } from "../../../../contracts/tuning-request-states";
import { formatDueDay } from "../../../../src/lib/quote-due";

describe("a ticket's due date", () => {
  it("reads as the day", () => {
    expect(formatDueDay("2026-12-06T10:00:00.000Z")).toBe("6 Dec 2026");
  });

  it("is late only past it while the work is owed", () => {
    const dueAt = "2026-12-06T10:00:00.000Z";
    const after = new Date("2026-12-06T10:00:01.000Z");
    expect(isLate({ state: "in-progress", dueAt }, after)).toBe(true);
    expect(isLate({ state: "paid", dueAt }, after)).toBe(true);
    expect(isLate({ state: "in-progress", dueAt }, new Date("2026-12-06T09:59:59.000Z"))).toBe(false);
    for (const state of ["quoted", "delivered", "revision-requested", "accepted", "cancelled", "not-possible"] as const)
      expect(isLate({ state, dueAt }, after), state).toBe(false);
    expect(isLate({ state: "paid", dueAt: null }, after)).toBe(false);
  });
});
