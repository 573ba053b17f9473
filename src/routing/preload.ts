/**
 * Route preloading: up to 4 route preloads at once.
 *
 * Links preload their route's code when visible or hovered. Many links can come into view at
 * once, and loading them all would compete with what the user is doing, so the scheduler runs at
 * most 4 loads at a time and queues the rest. A route is loaded once: asking again while it is
 * queued, loading or loaded returns the same promise. A hovered link is likelier to be
 * followed than one merely visible, so `priority: "high"` puts it at the front of the queue.
 * A failed preload is forgotten so a later request retries it; the navigation itself reports
 * real failures, so the preload's promise resolves to false instead of rejecting.
 */

export const MAX_CONCURRENT_PRELOADS = 4;

export type PreloadPriority = "normal" | "high";

interface Job {
  key: string;
  load: () => Promise<unknown>;
  resolve: (loaded: boolean) => void;
}

export class PreloadScheduler {
  readonly #limit: number;
  readonly #queue: Job[] = [];
  readonly #known = new Map<string, Promise<boolean>>();
  #running = 0;

  constructor(limit: number = MAX_CONCURRENT_PRELOADS) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Preload limit must be a positive integer, got ${limit}.`);
    this.#limit = limit;
  }

  /** Resolves to true once `load` has succeeded, false if it failed. */
  preload(key: string, load: () => Promise<unknown>, priority: PreloadPriority = "normal"): Promise<boolean> {
    const known = this.#known.get(key);
    if (known) {
      const queued = this.#queue.findIndex((job) => job.key === key);
      if (priority === "high" && queued > 0) this.#queue.unshift(...this.#queue.splice(queued, 1));
      return known;
    }
    const promise = new Promise<boolean>((resolve) => {
      const job = { key, load, resolve };
      if (priority === "high") this.#queue.unshift(job);
      else this.#queue.push(job);
    });
    this.#known.set(key, promise);
    this.#pump();
    return promise;
  }

  /** Loads running now. */
  get active(): number {
    return this.#running;
  }

  /** Loads waiting for a free slot. */
  get queued(): number {
    return this.#queue.length;
  }

  #pump(): void {
    while (this.#running < this.#limit && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      this.#running += 1;
      Promise.resolve()
        .then(job.load)
        .then(
          () => job.resolve(true),
          () => {
            this.#known.delete(job.key);
            job.resolve(false);
          },
        )
        .finally(() => {
          this.#running -= 1;
          this.#pump();
        });
    }
  }
}

/** The app's scheduler; links call `routePreloads.preload(path, () => import(...))`. */
export const routePreloads = new PreloadScheduler();
