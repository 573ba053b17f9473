import { createElement, type ReactNode, Suspense } from "react";
import { Outlet, Route, useLocation, useParams } from "react-router";
import { useForcedColourMode } from "../components/colour-mode-switch";
import { PageRendered } from "../components/keep-alive-routes";
import { PageSpinner } from "../components/page-spinner";
import { PageNotFound, RecordNotFoundBoundary } from "../components/record-not-found";
import { RouteGuard } from "../components/route-guard";
import { NotFoundPage } from "../pages/errors/not-found";
import { type FlatRoute, flattenRoutes, notFoundLayout } from "../routing/registry";
import type { LayoutName, RoutePage } from "../routing/types";

/** Applies the colour mode a page forces through its route metadata while it is on screen (a kept page off screen has no effects). */
function ForcedColourMode({ mode }: { mode: FlatRoute["colourMode"] }) {
  useForcedColourMode(mode);
  return null;
}

/** The page, or 404 "Page Not Found" when its params fail the route's validation or the record they name does not exist. */
function ValidatedPage({ page }: { page: RoutePage }) {
  const params = useParams();
  if (page.validate && !page.validate(params)) return <PageNotFound />;
  return <RecordNotFoundBoundary>{createElement(page.component)}</RecordNotFoundBoundary>;
}

const pageLoading = <PageSpinner label="Loading the page" />;

/** Unknown paths: a non-fatal 404 inside the layout the path belongs to. */
function UnknownPath({ layouts }: { layouts: Record<LayoutName, (children: ReactNode) => ReactNode> }) {
  const { pathname } = useLocation();
  return layouts[notFoundLayout(pathname)](
    <>
      <NotFoundPage />
      <PageRendered />
    </>,
  );
}

const layoutOrder: LayoutName[] = ["landing", "portal", "docs", "none"];

/**
 * The route tree of `routes` (every route by default): one branch per layout, every route wrapped in
 * its guard, its page's code loaded inside the layout (the layout stays while it loads); unknown
 * paths end in a 404.
 */
export function renderRoutes(
  layouts: Record<LayoutName, (children: ReactNode) => ReactNode>,
  routes: FlatRoute[] = flattenRoutes(),
): ReactNode {
  return [
    ...layoutOrder.map((layout) => (
      <Route key={layout} element={layouts[layout](<Outlet />)}>
        {routes
          .filter((route) => route.layout === layout)
          .map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={
                <RouteGuard guard={route.guard}>
                  <ForcedColourMode mode={route.colourMode} />
                  <Suspense fallback={pageLoading}>
                    <ValidatedPage page={route.page} />
                    <PageRendered />
                  </Suspense>
                </RouteGuard>
              }
            />
          ))}
      </Route>
    )),
    <Route key="*" path="*" element={<UnknownPath layouts={layouts} />} />,
  ];
}
