/**
 * The public site: the landing, docs and account pages, shown without the portal's code. Refine,
 * its query cache and the portal's layouts load only when a page of the portal opens
 * (src/portal-app.tsx), so a first visit downloads and runs what the page it shows needs. These
 * pages send their requests through the data provider directly (src/providers/services-context.tsx).
 */
import { memo, useEffect } from "react";
import { useLocation } from "react-router";
import { documentTitle } from "./lib/labels";
import { flattenRoutes, renderRoutes, routeFor } from "./resources";
import { layouts } from "./routing/layouts";
import { AppChrome, PageRoutes } from "./routing/page-routes";

const siteRoutes = flattenRoutes().filter((route) => route.publicSite);
const routes = renderRoutes(layouts, siteRoutes);

/** The browser tab names the page, as the portal's title handler does. */
function DocumentTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(routeFor(pathname, siteRoutes)?.label);
  }, [pathname]);
  return null;
}

/** Memoised like the portal (src/portal-app.tsx): the shell above re-renders at every change of page. */
export const PublicSite = memo(function PublicSite() {
  return (
    <>
      <DocumentTitle />
      <PageRoutes routes={routes} />
      <AppChrome />
    </>
  );
});
