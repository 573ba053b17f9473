import "@refinedev/antd/dist/reset.css";
import { Refine } from "@refinedev/core";
import routerProvider, { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider, Empty } from "antd";
import { type ComponentType, type ReactNode, Suspense, lazy, useLayoutEffect, useRef } from "react";
import { BrowserRouter, useLocation } from "react-router";
import { AppErrorBoundary, errorState } from "./components/app-error-boundary";
import { ColourModeSwitch, useColourMode } from "./components/colour-mode-switch";
import { DialogHost } from "./components/dialog-host";
import { KeepAliveRoutes } from "./components/keep-alive-routes";
import { KeyboardShortcuts } from "./components/keyboard-shortcuts";
import { DocsLayout } from "./components/layouts/docs-layout";
import { LandingLayout } from "./components/layouts/landing-layout";
import { Link } from "./components/link";
import { PageRedirect } from "./components/page-redirect";
import { Toaster } from "./components/toaster";
import { emptyLabel } from "./lib/labels";
import type { ReleaseCheck } from "./lib/release-check";
import { releaseSnapshot } from "./lib/snapshot";
import { useReducedMotion } from "./components/theme/reduced-motion";
import { antdTheme } from "./components/theme/antd-theme";
import { notificationProvider } from "./providers/notification-provider";
import type { Services } from "./providers/services";
import { SessionContext, useSessionState } from "./providers/session-context";
import { keepAliveFor, keepAliveKey, refineResources, renderRoutes } from "./resources";
import type { LayoutName } from "./routing/types";

// The portal's frame (Refine's themed layout, which brings its markdown renderer) loads when the portal opens, not on the landing page.
const PortalLayout = lazy(() => import("./components/layouts/portal-layout").then((module) => ({ default: module.PortalLayout })));

const switchInHeader = <ColourModeSwitch />;
const layouts: Record<LayoutName, (children: ReactNode) => ReactNode> = {
  landing: (children) => <LandingLayout headerExtra={switchInHeader}>{children}</LandingLayout>,
  portal: (children) => (
    <Suspense fallback={null}>
      <PortalLayout headerExtra={switchInHeader}>{children}</PortalLayout>
    </Suspense>
  ),
  docs: (children) => <DocsLayout headerExtra={switchInHeader}>{children}</DocsLayout>,
  none: (children) => children,
};

const resources = refineResources();
const routes = renderRoutes(layouts);
// Every link Refine renders (menu, breadcrumbs, record buttons) preloads its page's code.
const router = { ...routerProvider, Link };
const pageRendered = () => {
  errorState.navigationRendered();
  // The app's page is on screen: the build's snapshot of it (public pages) has done its part.
  releaseSnapshot(document);
};

// The account stream's code loads with the first sign-in, not on a visitor's first page.
const AccountStreamListener = lazy(() => import("./components/account-stream-listener").then((module) => ({ default: module.AccountStreamListener })));

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
 * At each client-side change of page, before the browser paints it: once a new release is known
 * this becomes a full load of the new URL, so every kind of navigation (links, redirects after a
 * save, back and forward) picks up the new code. Query-only changes (a list's filters) are not
 * a change of page and never reload. Otherwise a navigation starts for the error state.
 */
function PageChange({ releaseCheck }: { releaseCheck: ReleaseCheck }) {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useLayoutEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (releaseCheck.shouldFullReload()) {
      releaseCheck.beforeFullReload();
      window.location.reload();
      return;
    }
    errorState.navigationStarted();
  }, [pathname, releaseCheck]);
  return null;
}

/** Pages kept alive belong to the person signed in (undefined until the session is known). */
function Pages() {
  const { ready, user } = useSessionState();
  return (
    <KeepAliveRoutes owner={ready ? (user?.uid ?? null) : undefined} keep={keepAliveFor} keyOf={keepAliveKey} onRendered={pageRendered}>
      {routes}
    </KeepAliveRoutes>
  );
}

/**
 * The whole app. In the browser the address bar drives it; the build's snapshots of the public pages
 * hand in a router fixed on one URL (src/prerender/render-page.tsx), which the browser's bundle then
 * does not carry.
 */
export function App({ services, releaseCheck, Router = BrowserRouter }: { services: Services; releaseCheck: ReleaseCheck; Router?: ComponentType<{ children: ReactNode }> }) {
  const { resolved } = useColourMode();
  const reducedMotion = useReducedMotion();
  return (
    <Router>
      <ConfigProvider theme={antdTheme(resolved, { reducedMotion })} renderEmpty={(name) => <Empty description={emptyLabel(name)} />}>
        <AntdApp>
          <SessionContext.Provider value={services.session}>
            <Refine
              dataProvider={services.dataProvider}
              authProvider={services.authProvider}
              accessControlProvider={services.accessControlProvider}
              routerProvider={router}
              notificationProvider={notificationProvider}
              resources={resources}
              options={{
                disableTelemetry: true,
                syncWithLocation: true,
                warnWhenUnsavedChanges: true,
                reactQuery: { clientConfig: services.queryClient },
                title: { text: "Tuning Portal" },
              }}
            >
              <PageChange releaseCheck={releaseCheck} />
              <AccountStream />
              <AppErrorBoundary>
                <PageRedirect>
                  <Pages />
                </PageRedirect>
              </AppErrorBoundary>
              {/* Above every layout, so dialogs and toasts survive page switches. */}
              <DialogHost />
              <KeyboardShortcuts />
              <Toaster />
              <UnsavedChangesNotifier />
              <DocumentTitleHandler handler={({ resource }) => `${resource?.meta?.label ?? "Tuning Portal"} · Tuning Portal`} />
            </Refine>
          </SessionContext.Provider>
        </AntdApp>
      </ConfigProvider>
    </Router>
  );
}
