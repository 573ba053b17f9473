import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, TooltipDelay } from "../../../../src/lib/tooltip-delay";

describe("tooltip timing", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("opens after 700 ms when no tooltip was open", () => {
    expect(TOOLTIP_DELAY_MS).toBe(700);
    expect(new TooltipDelay().delayMs()).toBe(700);
  });

  it("opens at once while another tooltip is open, and for 300 ms after it closed", () => {
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
    const delay = new TooltipDelay();
    delay.opened();
    expect(delay.delayMs()).toBe(0);
    delay.closed();
    vi.advanceTimersByTime(299);
    expect(delay.delayMs()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(delay.delayMs()).toBe(700);
  });

  it("starts the skip window only when the last open tooltip closes", () => {
    const delay = new TooltipDelay();
    delay.opened();
    delay.opened();
    delay.closed();
    vi.advanceTimersByTime(1000);
    expect(delay.delayMs()).toBe(0);
    delay.closed();
    vi.advanceTimersByTime(300);
    expect(delay.delayMs()).toBe(700);
  });

  it("a neighbour opened inside the window keeps it open", () => {
    const delay = new TooltipDelay();
    const changes = vi.fn();
    delay.subscribe(changes);
    delay.opened();
    delay.closed();
    vi.advanceTimersByTime(200);
    delay.opened();
    vi.advanceTimersByTime(500);
    expect(delay.delayMs()).toBe(0);
    expect(changes).toHaveBeenCalledTimes(1);
  });
});
