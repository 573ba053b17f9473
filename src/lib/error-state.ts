/**
 * The app's fatal error state: fatal or unhandled errors (page errors, failed chunk loads) switch
 * the app to the error page, except for bot user agents, who get no error page.
 *
 * One store per tab holds the error the app shows instead of its pages, or null. The shell
 * (src/components/app-error-boundary.tsx) renders the error page while it is set; "Go Home"
 * calls `clearError()`. Errors reach it from three places:
 * - a render error anywhere below the shell's error boundary (`showError`);
 * - an unhandled promise rejection while a navigation is under way (`unhandledRejection`);
 * - a failed chunk load (`chunkLoadFailed`), which first reloads the page once per 10 s per
 *   path through the reload guard and only shows the error when the reload did not help.
 *
 * "During navigation" is from a location change until the new page has rendered and
 * NAVIGATION_SETTLE_MS more have passed, so a rejection from the page's first effects (a load
 * without a catch) counts. A rejection later, while the user works on the page, is only logged:
 * a background failure must not throw away a half-typed form.
 *
 * For bots nothing is shown: the error is logged and the page stays as it was, so a crawler
 * never indexes an error screen as the page's content.
 */
import type { ApiError } from "../../contracts/errors";
import { type ChunkReloadDecision, decideChunkReload, isChunkLoadError } from "./reload-guard";

export const NAVIGATION_SETTLE_MS = 1000;

export const FATAL_ERROR_MESSAGE = "Something went wrong";
export const CHUNK_ERROR_MESSAGE = "This page could not be loaded";

/** The error's own shape when it has one (HttpError from the data provider), else a 500. */
export function toApiError(error: unknown, path: string): ApiError {
  const shaped = error as Partial<ApiError> | null;
  if (
    shaped &&
    typeof shaped === "object" &&
    typeof shaped.statusCode === "number" &&
    shaped.statusCode >= 400 &&
    typeof shaped.message === "string"
  ) {
    return {
      statusCode: shaped.statusCode,
      message: shaped.message,
      ...(typeof shaped.description === "string" && { description: shaped.description }),
      data: shaped.data ?? { path },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const chunk = isChunkLoadError(error);
  return {
    statusCode: 500,
    message: chunk ? CHUNK_ERROR_MESSAGE : FATAL_ERROR_MESSAGE,
    description: chunk
      ? "Part of the portal could not be downloaded. Check your connection, then go home or reload the page."
      : "The page stopped because of an unexpected error. Going home starts it again.",
    data: { path, error: message },
  };
}

export interface ErrorStateOptions {
  bot: boolean;
  /** Reload decision for a path; the reload guard by default. */
  decideReload?: (path: string) => ChunkReloadDecision;
  reload: () => void;
  log?: (message: string, error: unknown) => void;
  now?: () => number;
}

export class ErrorState {
  readonly #bot: boolean;
  readonly #decideReload: (path: string) => ChunkReloadDecision;
  readonly #reload: () => void;
  readonly #log: (message: string, error: unknown) => void;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #error: ApiError | null = null;
  /** The first page load is a navigation too. */
  #navigating = true;
  #settledAt: number | null = null;
  #reloading = false;

  constructor(options: ErrorStateOptions) {
    this.#bot = options.bot;
    this.#decideReload = options.decideReload ?? ((path) => decideChunkReload(path));
    this.#reload = options.reload;
    this.#log = options.log ?? ((message, error) => console.error(message, error));
    this.#now = options.now ?? (() => Date.now());
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): ApiError | null => this.#error;

  /** Switches the app to the error page (logged only, for bots). The first error wins. */
  showError(error: unknown, path: string): void {
    this.#log(`[portal] Fatal error on ${path}:`, error);
    if (this.#bot || this.#error) return;
    this.#set(toApiError(error, path));
  }

  clearError(): void {
    if (this.#error) this.#set(null);
  }

  /** True once a chunk failure asked for a reload: whatever fails next is that reload's doing. */
  get reloading(): boolean {
    return this.#reloading;
  }

  navigationStarted(): void {
    this.#navigating = true;
    this.#settledAt = null;
  }

  /** The new page has rendered; the navigation ends NAVIGATION_SETTLE_MS later. */
  navigationRendered(): void {
    this.#settledAt = this.#now();
  }

  get navigating(): boolean {
    if (!this.#navigating) return false;
    if (this.#settledAt !== null && this.#now() - this.#settledAt >= NAVIGATION_SETTLE_MS) this.#navigating = false;
    return this.#navigating;
  }

  /** The code of the page being shown could not be loaded: reload once, else the error page. */
  chunkLoadFailed(error: unknown, path: string): void {
    if (this.#reloading) return;
    if (this.#decideReload(path) === "reload") {
      this.#reloading = true;
      this.#reload();
      return;
    }
    this.showError(error, path);
  }

  /** Returns true when the rejection was taken as fatal. */
  unhandledRejection(reason: unknown, path: string): boolean {
    if (isChunkLoadError(reason)) {
      // Outside a navigation it cannot be the page being shown: that one reaches the boundary.
      if (!this.navigating) return false;
      this.chunkLoadFailed(reason, path);
      return true;
    }
    if (!this.navigating) {
      this.#log(`[portal] Unhandled rejection on ${path} (page kept):`, reason);
      return false;
    }
    this.showError(reason, path);
    return true;
  }

  #set(error: ApiError | null): void {
    this.#error = error;
    for (const listener of this.#listeners) listener();
  }
}
