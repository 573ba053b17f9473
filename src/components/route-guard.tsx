import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { canAccess } from "../providers/access-control";
import { useSessionState } from "../providers/session-context";
import { DeferredErrorPage } from "./deferred-error-page";
import { PageSpinner } from "./page-spinner";

/**
 * Wraps a route's outlet: signed-out visitors go to /login?to=<where they were>, a signed-in user
 * without the role sees a 403 page. Decided by the same pure canAccess the access-control provider uses.
 */
export function RouteGuard({ guard, children }: { guard: string; children: ReactNode }) {
  const session = useSessionState();
  const location = useLocation();
  const decision = canAccess(session.role, guard);
  if (decision.can) return children;
  if (!session.ready) {
    return <PageSpinner label="Checking your sign-in" />;
  }
  if (!session.user) {
    const to = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?to=${encodeURIComponent(to)}`} replace />;
  }
  return <DeferredErrorPage error={{ statusCode: 403, message: "Forbidden", description: decision.reason }} />;
}
