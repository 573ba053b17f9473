/**
 * The error page, its code fetched when an error is shown. The app's error boundary and the 404 of
 * a record that does not exist are on every page's first load, and almost none shows an error:
 * antd's Result with its illustrations waits until one does. Where the code cannot be fetched
 * (offline, or a release replaced it), the same error is shown plainly instead.
 */
import { Suspense, lazy } from "react";
import { useNavigate } from "react-router";
import type { ErrorPageProps } from "./error-page";

const ErrorPage = lazy(() =>
  import("./error-page").then(
    (module) => ({ default: module.ErrorPage }),
    () => ({ default: PlainErrorPage }),
  ),
);

export function DeferredErrorPage(props: ErrorPageProps) {
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
