import { useLocation } from "react-router";
import { DeferredErrorPage } from "../../components/deferred-error-page";

/** Unknown paths: a non-fatal 404 inside the current layout. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <DeferredErrorPage
      error={{
        statusCode: 404,
        message: `Page not found: ${pathname}`,
        description: "Check the address, or go back to the home page.",
      }}
    />
  );
}
