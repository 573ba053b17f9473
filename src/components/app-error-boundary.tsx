/**
 * The app-level error boundary and the tab's error state (src/lib/error-state.ts).
 *
 * Mount once around the routes, inside the router (Go Home navigates):
 *   <AppErrorBoundary><Routes …/></AppErrorBoundary>
 * and install the window listener once at start (main.tsx):
 *   installErrorListeners(window);
 *
 * While the error state holds an error the routes are replaced by the error page, so a broken
 * page and everything kept alive with it are unmounted; "Go Home" clears the error and mounts
 * them afresh at "/". Chunk-load failures caught here (a lazy page whose code could not be
 * fetched) go through the reload guard first.
 */
import { Component, type ReactNode, useSyncExternalStore } from "react";
import { isBot } from "../lib/bots";
import { ErrorState } from "../lib/error-state";
import { isChunkLoadError } from "../lib/reload-guard";
import { DeferredErrorPage } from "./deferred-error-page";

export const errorState = new ErrorState({
  bot: isBot(typeof navigator === "undefined" ? null : navigator.userAgent),
  reload: () => window.location.reload(),
});

const currentPath = () => window.location.pathname;

/**
 * Unhandled rejections during navigation. Vite's "vite:preloadError" is deliberately left to its
 * default (the import rejects): it fires for every failed dynamic import, the hover and
 * visibility preloads of links included, and a failed preload must not reload the page under
 * the user. The failure that matters, the page being shown, reaches the boundary below through
 * React.lazy and goes through the reload guard there.
 */
export function installErrorListeners(target: Window): void {
  target.addEventListener("unhandledrejection", (event) => {
    if (errorState.unhandledRejection(event.reason, currentPath())) event.preventDefault();
  });
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    // After a reload was asked for, the import resolved to nothing: that failure is expected.
    if (errorState.reloading) return;
    if (isChunkLoadError(error)) errorState.chunkLoadFailed(error, currentPath());
    else errorState.showError(error, currentPath());
  }

  /** Nothing while reloading, and nothing for bots (no error page for them). */
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const error = useSyncExternalStore(errorState.subscribe, errorState.getSnapshot, errorState.getSnapshot);
  if (error) {
    return <DeferredErrorPage error={error} onGoHome={() => errorState.clearError()} />;
  }
  return <Boundary>{children}</Boundary>;
}
