/**
 * The public site: the landing, docs and account pages, shown without the portal's code. Refine,
 * its query cache and the portal's layouts load only when a page of the portal opens
 * (src/portal-app.tsx), so a first visit downloads and runs what the page it shows needs. These
 * pages send their requests through the data provider directly (src/providers/services-context.tsx).
 */
import { memo, useEffect } from "react";
import { useLocation } from "react-router";
import { documentTitle } from "./lib/labels";
import { flattenRoutes, routeFor } from "./resources";
import type { FlatRoute } from "./routing/registry";
import { layouts } from "./shell/layouts";
import { AppChrome, PageRoutes } from "./shell/page-routes";
import { renderRoutes } from "./shell/routes";

let site: { routes: FlatRoute[]; tree: ReturnType<typeof renderRoutes> } | undefined;

/** The public pages and their route tree, made once at the first render (the routes are registered by then). */
function siteRouting() {
  if (!site) {
    const routes = flattenRoutes().filter((route) => route.publicSite);
    site = { routes, tree: renderRoutes(layouts, routes) };
  }
  return site;
}

/** The browser tab names the page, as the portal's title handler does. */
function DocumentTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(routeFor(pathname, siteRouting().routes)?.label);
  }, [pathname]);
  return null;
}

/** Memoised like the portal (src/portal-app.tsx): the shell above re-renders at every change of page. */
export const PublicSite = memo(function PublicSite() {
  return (
    <>
      <DocumentTitle />
      <PageRoutes routes={siteRouting().tree} />
      <AppChrome />
    </>
  );
});
