import "@refinedev/antd/dist/reset.css";
import { ConfigProvider } from "antd";
import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { BrowserRouter, useLocation } from "react-router";
import { AppErrorBoundary, errorState } from "./components/app-error-boundary";
import { AppFrame } from "./components/app-frame";
import { useColourMode } from "./components/colour-mode-switch";
import { EmptyState } from "./components/empty-state";
import { KeyboardShortcuts } from "./components/keyboard-shortcuts";
import { PageRedirect } from "./components/page-redirect";
import { PageSpinner } from "./components/page-spinner";
import { antdTheme } from "./components/theme/antd-theme";
import { useReducedMotion } from "./components/theme/reduced-motion";
import { Toaster } from "./components/toaster";
import { whenIdle } from "./lib/idle";
import type { ReleaseCheck } from "./lib/release-check";
import type { Services } from "./providers/services";
import { ServicesContext } from "./providers/services-context";
import { SessionContext, SessionStateProvider, useSessionState } from "./providers/session-context";
import { PublicSite } from "./public-site";
import { isPublicSitePath, notFoundLayout, preloadRoute, routeFor } from "./resources";
import { preloadPortalLayout } from "./shell/layouts";

const loadPortal = () => import("./portal-app");
const PortalApp = lazy(() => loadPortal().then((module) => ({ default: module.PortalApp })));

/**
 * For a page load on a portal page: fetches the portal's code, its frame and the page's own code at
 * once, beside the runtime configuration and the identity SDK, instead of one after the other as
 * each render asks for the next.
 */
export function preloadPortalPage(pathname: string): void {
  if (isPublicSitePath(pathname)) return;
  void loadPortal();
  const route = routeFor(pathname);
  if ((route?.layout ?? notFoundLayout(pathname)) === "portal") preloadPortalLayout();
  preloadRoute(pathname);
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

const portalLoading = <PageSpinner label="Opening the portal" />;

/**
 * The public site until a page of the portal opens, then the portal for good (it shows the public
 * pages too). Someone signed in is likely to go on into the portal: its code is fetched when the
 * browser is idle.
 */
function Shell({ services }: { services: Services }) {
  const { pathname } = useLocation();
  const { user } = useSessionState();
  const [portalOpened, setPortalOpened] = useState(false);
  const portal = portalOpened || !isPublicSitePath(pathname);
  if (portal && !portalOpened) setPortalOpened(true);
  useEffect(() => {
    if (portal || !user) return;
    whenIdle(() => void loadPortal());
  }, [portal, user]);
  if (!portal) return <PublicSite />;
  return (
    <Suspense fallback={portalLoading}>
      <PortalApp services={services} />
    </Suspense>
  );
}

/**
 * The whole app. In the browser the address bar drives it; the build's snapshots of the public pages
 * hand in a router fixed on one URL (src/prerender/render-page.tsx), which the browser's bundle then
 * does not carry.
 */
export function App({
  services,
  releaseCheck,
  Router = BrowserRouter,
}: {
  services: Services;
  releaseCheck: ReleaseCheck;
  Router?: ComponentType<{ children: ReactNode }>;
}) {
  const { resolved } = useColourMode();
  const reducedMotion = useReducedMotion();
  return (
    <Router>
      <ConfigProvider
        theme={antdTheme(resolved, { reducedMotion })}
        renderEmpty={(name) => <EmptyState componentName={name} />}
      >
        <AppFrame>
          <ServicesContext.Provider value={services}>
            <SessionContext.Provider value={services.session}>
              <SessionStateProvider session={services.session}>
                <PageChange releaseCheck={releaseCheck} />
                <AppErrorBoundary>
                  <PageRedirect>
                    <Shell services={services} />
                  </PageRedirect>
                </AppErrorBoundary>
                {/* Above the shells, so the keys work and toasts stay while the portal's code loads. */}
                <KeyboardShortcuts />
                <Toaster />
              </SessionStateProvider>
            </SessionContext.Provider>
          </ServicesContext.Provider>
        </AppFrame>
      </ConfigProvider>
    </Router>
  );
}
