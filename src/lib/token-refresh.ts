/**
 * The session rules for the ID token: refreshed 5 minutes before it expires; after a
 * failed refresh, retried after 30 s, doubling up to 960 s; counted as expired 30 s before its real
 * expiry. The identity SDK runs its proactive refresh only for other Firebase products (Firestore,
 * Functions) that ask it to; an app loading only `firebase/auth` gets none, so the session
 * (src/providers/session.ts) runs this one. Pure: the clock and the timers are handed in.
 */

export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
export const RETRY_FIRST_MS = 30_000;
export const RETRY_MAX_MS = 960_000;
export const EXPIRY_MARGIN_MS = 30_000;

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface TokenRefresherOptions {
  /** Forces a new token; answers its expiry (ms since the epoch), or null when nobody is signed in any more. */
  refresh: () => Promise<number | null>;
  /**
   * Told of a failed refresh; answers whether to retry later ("retry") or give up ("stop"), e.g.
   * when the account was disabled and the caller signed out.
   */
  onFailure: (error: unknown) => Promise<"retry" | "stop"> | "retry" | "stop";
  clock?: Clock;
}

/** Whether a token expiring at `expiresAt` must not be sent any more (within the margin of its expiry). */
export function isTokenExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && now >= expiresAt - EXPIRY_MARGIN_MS;
}

/** The wait before retry number `failures` (1 for the first failure): 30 s, 60 s, … capped at 960 s. */
export function retryDelay(failures: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

export function createTokenRefresher(options: TokenRefresherOptions) {
  const clock = options.clock ?? systemClock;
  let expiresAt: number | null = null;
  let timer: unknown = null;
  let failures = 0;
  // Bumped by every follow/stop, so a refresh in flight when the session changed does not reschedule.
  let generation = 0;

  const clear = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };

  const schedule = (delay: number) => {
    clear();
    const mine = generation;
    timer = clock.setTimeout(
      () => {
        timer = null;
        if (mine === generation) void run(mine);
      },
      Math.max(0, delay),
    );
  };

  async function run(mine: number): Promise<void> {
    let next: number | null;
    try {
      next = await options.refresh();
    } catch (error) {
      if (mine !== generation) return;
      const verdict = await options.onFailure(error);
      if (mine !== generation || verdict === "stop") return;
      failures++;
      schedule(retryDelay(failures));
      return;
    }
    if (mine !== generation) return;
    failures = 0;
    if (next === null) stop();
    else follow(next);
  }

  /** Follows a (new) token expiring at `expiry`: its refresh is due 5 minutes before. */
  function follow(expiry: number): void {
    if (!Number.isFinite(expiry)) return;
    generation++;
    expiresAt = expiry;
    // A new token ends any backoff: the service is reachable again.
    failures = 0;
    schedule(expiry - REFRESH_BEFORE_EXPIRY_MS - clock.now());
  }

  /** Signed out: nothing to refresh. */
  function stop(): void {
    generation++;
    expiresAt = null;
    failures = 0;
    clear();
  }

  return {
    follow,
    stop,
    /** True when the current token is within the expiry margin: refresh before sending it. */
    isExpired: () => isTokenExpired(expiresAt, clock.now()),
    /** For tests and diagnostics: when the next attempt is due, and how many failed in a row. */
    state: () => ({ expiresAt, failures, scheduled: timer !== null }),
  };
}

export type TokenRefresher = ReturnType<typeof createTokenRefresher>;
