/**
 * The error page, its code fetched when an error is shown. The app's error boundary and the 404 of
 * a record that does not exist are on every page's first load, and almost none shows an error:
 * antd's Result with its illustrations waits until one does. Where the code cannot be fetched
 * (offline, or a release replaced it), the same error is shown plainly instead. The portal, where
 * refusals and missing records are common, fetches the code as it opens (`preloadErrorPage`), and
 * once it is in the page shows at once, without a moment of blank.
 */
import { lazy, Suspense, useEffect } from "react";
import { useNavigate } from "react-router";
import { releaseSnapshot } from "../lib/snapshot";
import type { ErrorPageProps } from "./error-page";

let loaded: typeof import("./error-page") | undefined;
const loadErrorPage = () => import("./error-page").then((module) => (loaded = module));

/** Fetches the error page's code ahead; a failure is left to the page, which then shows the error plainly. */
export const preloadErrorPage = (): void => void loadErrorPage().catch(() => undefined);

const ErrorPage = lazy(() =>
  loadErrorPage().then(
    (module) => ({ default: module.ErrorPage }),
    () => ({ default: PlainErrorPage }),
  ),
);

export function DeferredErrorPage(props: ErrorPageProps) {
  // An error (the app's, a refusal, a missing record or page) stands for the page: the build's drawing
  // of that page (a public page's snapshot, the portal's frame, src/lib/snapshot.ts) must not stay over it.
  useEffect(() => releaseSnapshot(document), []);
  if (loaded) return <loaded.ErrorPage {...props} />;
  return (
    <Suspense fallback={null}>
      <ErrorPage {...props} />
    </Suspense>
  );
}

function PlainErrorPage({ error, onGoHome }: ErrorPageProps) {
  const navigate = useNavigate();
  return (
    <div role="alert" style={{ padding: "48px 24px", textAlign: "center" }}>
      <h1>{error.statusCode}</h1>
      <h2 data-testid="error-message">{error.message}</h2>
      {error.description && <p>{error.description}</p>}
      <button
        type="button"
        onClick={() => {
          onGoHome?.();
          navigate("/");
        }}
      >
        Go Home
      </button>
    </div>
  );
}
