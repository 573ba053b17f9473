import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenRefresher, isTokenExpired, retryDelay } from "../../../../src/lib/token-refresh";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const networkError = () => Object.assign(new Error("network"), { code: "auth/network-request-failed" });

/** Lets the refresher's promise chain run after a timer fired. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("token refresh: the rules of spec §4/§9 on a fake clock", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("refreshes 5 minutes before the token expires, not earlier", async () => {
    const refresh = vi.fn(async () => Date.now() + HOUR);
    const refresher = createTokenRefresher({ refresh, onFailure: () => "retry" });
    refresher.follow(Date.now() + HOUR);
    await vi.advanceTimersByTimeAsync(55 * MINUTE - 1);
    expect(refresh, "nothing before expiry − 5 min").not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    // The new token (expiring an hour from now) is refreshed 55 minutes later again.
    await vi.advanceTimersByTimeAsync(55 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("refreshes at once a token already within 5 minutes of its expiry", async () => {
    const refresh = vi.fn(async () => Date.now() + HOUR);
    createTokenRefresher({ refresh, onFailure: () => "retry" }).follow(Date.now() + 2 * MINUTE);
    await settle();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("retries a failed refresh after 30 s, doubling up to 960 s, and starts again at 30 s after a success", async () => {
    let failing = true;
    const attempts: number[] = [];
    const start = Date.now();
    const refresh = vi.fn(async () => {
      attempts.push((Date.now() - start) / 1000);
      if (failing) throw networkError();
      return Date.now() + HOUR;
    });
    const onFailure = vi.fn((_error: unknown) => "retry" as const);
    const refresher = createTokenRefresher({ refresh, onFailure });
    refresher.follow(start + 5 * MINUTE);
    await settle();
    // First attempt at 0 s, then 30, 60, 120, 240, 480, 960, 960 s apart.
    await vi.advanceTimersByTimeAsync((30 + 60 + 120 + 240 + 480 + 960 + 960) * 1000);
    expect(attempts).toEqual([0, 30, 90, 210, 450, 930, 1890, 2850]);
    expect(onFailure).toHaveBeenCalledTimes(8);
    expect(onFailure.mock.calls[0][0]).toMatchObject({ code: "auth/network-request-failed" });
    expect(refresher.state().failures).toBe(8);

    failing = false;
    await vi.advanceTimersByTimeAsync(960_000);
    expect(refresher.state().failures, "a success resets the backoff").toBe(0);
    expect(refresh).toHaveBeenCalledTimes(9);

    // The next failure waits 30 s again, not 960 s.
    failing = true;
    await vi.advanceTimersByTimeAsync(55 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(10);
    await vi.advanceTimersByTimeAsync(30_000 - 1);
    expect(refresh).toHaveBeenCalledTimes(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(11);
  });

  it("the backoff steps are 30, 60, 120, 240, 480, 960 s and stay at 960 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => retryDelay(failures) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 960, 960,
    ]);
  });

  it("counts a token as expired 30 s before its real expiry", () => {
    const expiry = Date.now() + HOUR;
    expect(isTokenExpired(expiry, expiry - 30_001)).toBe(false);
    expect(isTokenExpired(expiry, expiry - 30_000)).toBe(true);
    expect(isTokenExpired(null, expiry)).toBe(false);
    const refresher = createTokenRefresher({ refresh: async () => null, onFailure: () => "stop" });
    refresher.follow(expiry);
    vi.setSystemTime(expiry - 30_001);
    expect(refresher.isExpired()).toBe(false);
    vi.setSystemTime(expiry - 29_999);
    expect(refresher.isExpired()).toBe(true);
  });

  it("stops on sign-out: no refresh after stop, even one already in flight reschedules nothing", async () => {
    let finish!: (expiry: number) => void;
    const refresh = vi.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const refresher = createTokenRefresher({ refresh, onFailure: () => "retry" });
    refresher.follow(Date.now() + 10 * MINUTE);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(1);
    refresher.stop();
    finish(Date.now() + HOUR);
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresher.state()).toEqual({ expiresAt: null, failures: 0, scheduled: false });
  });

  it("gives up when the failure handler says stop (the account was disabled and signed out)", async () => {
    const refresh = vi.fn(async () => {
      throw Object.assign(new Error("disabled"), { code: "auth/user-disabled" });
    });
    const refresher = createTokenRefresher({ refresh, onFailure: () => "stop" });
    refresher.follow(Date.now() + 5 * MINUTE);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresher.state().scheduled).toBe(false);
  });
});
