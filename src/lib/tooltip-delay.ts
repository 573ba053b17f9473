/**
 * Tooltip timing: a delay of 700 ms, a skip delay of 300 ms.
 *
 * A tooltip opens 700 ms after the pointer rests on its trigger. Once one is open, moving to a
 * neighbour should not wait again: while any tooltip is open, and for 300 ms after the last one
 * closed, the next opens at once (the "skip delay" of Radix and reka-ui tooltips, which antd
 * lacks). `delayMs()` is the open delay that applies now; `subscribe`/`getSnapshot` fit
 * `useSyncExternalStore` so triggers re-render when it changes.
 */

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export class TooltipDelay {
  readonly #listeners = new Set<() => void>();
  #open = 0;
  #skipping = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** True while the next tooltip opens without delay. */
  readonly getSnapshot = (): boolean => this.#skipping;

  delayMs(): number {
    return this.#skipping ? 0 : TOOLTIP_DELAY_MS;
  }

  opened(): void {
    this.#open += 1;
    clearTimeout(this.#timer);
    this.#set(true);
  }

  closed(): void {
    this.#open = Math.max(0, this.#open - 1);
    if (this.#open > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#set(false), TOOLTIP_SKIP_DELAY_MS);
  }

  #set(skipping: boolean): void {
    if (this.#skipping === skipping) return;
    this.#skipping = skipping;
    for (const listener of this.#listeners) listener();
  }
}
