/**
 * The portal: Refine over the app's services, every route of the app, the account stream and the
 * unsaved-changes guard. Loaded when the first page of the portal opens (src/App.tsx); from then
 * on it shows the public pages too, so the code is not swapped back and forth.
 */
import { Refine } from "@refinedev/core";
import routerProvider, { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp } from "antd";
import { lazy, memo, Suspense } from "react";
import { preloadErrorPage } from "./components/deferred-error-page";
import { Link } from "./components/link";
// Before any of Refine's antd components renders: they read the window's breakpoints at the first render.
import "./components/layouts/refine-breakpoints";
import { documentTitle } from "./lib/labels";
import { notificationProvider } from "./providers/notification-provider";
import { portalServices } from "./providers/portal-services";
import { refineOptions } from "./providers/refine-options";
import type { Services } from "./providers/services";
import { useSessionState } from "./providers/session-context";
import { refineResources } from "./resources";
import { useRouteParse } from "./routing/route-parse";
import { layouts } from "./shell/layouts";
import { AppChrome, PageRoutes } from "./shell/page-routes";
import { renderRoutes } from "./shell/routes";

const resources = refineResources();
// Refusals and records that do not exist are common in the portal: their page's code comes with it.
preloadErrorPage();
const routes = renderRoutes(layouts);
// Every link Refine renders (menu, breadcrumbs, record buttons) preloads its page's code; the route is
// matched to its resource once per path, not once per data hook (src/routing/route-parse.ts).
const router = { ...routerProvider, Link, parse: useRouteParse };

// The account stream's code loads with the first sign-in, not on a visitor's first page.
const AccountStreamListener = lazy(() =>
  import("./components/account-stream-listener").then((module) => ({ default: module.AccountStreamListener })),
);

/** The signed-in user's account stream, kept open while someone is signed in. */
function AccountStream() {
  const { user } = useSessionState();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <AccountStreamListener />
    </Suspense>
  );
}

/**
 * Memoised: the shell above re-renders at every change of page, and Refine made anew would hand its
 * hooks new functions, which pages kept alive would take for a change (a hidden log view fetching
 * its columns again).
 */
export const PortalApp = memo(function PortalApp({ services }: { services: Services }) {
  const portal = portalServices(services);
  return (
    // antd's message, notification and modal holders for `App.useApp()`, inside the frame the app
    // already draws (src/components/app-frame.tsx): no element of its own.
    <AntdApp component={false}>
      <Refine
        dataProvider={services.dataProvider}
        authProvider={portal.authProvider}
        accessControlProvider={portal.accessControlProvider}
        routerProvider={router}
        notificationProvider={notificationProvider}
        resources={resources}
        options={refineOptions(portal.queryClient)}
      >
        <AccountStream />
        <PageRoutes routes={routes} />
        <AppChrome prefetchDialogs />
        <UnsavedChangesNotifier />
        <DocumentTitleHandler handler={({ resource }) => documentTitle(resource?.meta?.label)} />
      </Refine>
    </AntdApp>
  );
});
