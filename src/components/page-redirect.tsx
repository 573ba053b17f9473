import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { redirectFor } from "../lib/redirects";

/** Consults the page-level redirect table before any route matches. */
export function PageRedirect({ children }: { children: ReactNode }) {
  const location = useLocation();
  const target = redirectFor(`${location.pathname}${location.search}${location.hash}`);
  return target ? <Navigate to={target} replace /> : children;
}
