/**
 * The build's snapshot of a public page (scripts/lib/prerender.ts runs this in Node after
 * `vite build`): the real app rendered for one URL, as a signed-out visitor, in one colour mode,
 * with antd's styles for exactly what it shows. A phone paints the snapshot as soon as the HTML
 * arrives; the app replaces it when its own render of the page is ready (src/lib/snapshot.ts).
 */
import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import { ConfigProvider } from "antd";
import { type ReactNode, StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router";
import { App } from "../App";
import { AppFrame } from "../components/app-frame";
import { setColourModeEnvironment } from "../components/colour-mode-switch";
import { PORTAL_SHELL_STYLE, PortalShell } from "../components/layouts/portal-shell";
import { SnapshotScreen } from "../components/layouts/snapshot-screen";
import { antdTheme } from "../components/theme/antd-theme";
import type { ColourMode, ColourModePreference } from "../lib/colour-mode";
import { ReleaseCheck } from "../lib/release-check";
import { servicesFor } from "../providers/services";
import { flattenRoutes, menuParents, registerResources, registry } from "../resources";
import type { LayoutName } from "../routing/types";

// The build renders the app without its entry (src/main.tsx), so it registers the routes the same way.
registerResources(registry, menuParents);

export interface RenderedPage {
  /** The markup inside the app's root element. */
  html: string;
  /** antd's `<style>` elements for that markup. */
  styles: string;
}

const quiet = { addEventListener() {}, removeEventListener() {} };

/** A colour mode fixed for one render: nothing stored, no system preference, no document to mark. */
function fixedColourMode(mode: ColourModePreference) {
  const documentElement = { classList: { add() {}, remove() {} }, style: {} };
  return {
    storage: { getItem: () => mode, setItem() {} },
    matchMedia: null,
    document: { documentElement } as unknown as Document,
    requestAnimationFrame() {},
  };
}

/** antd's styles collected by renders: a page's narrow and wide renders share one. */
export type StyleCache = ReturnType<typeof createCache>;
export const newStyleCache = (): StyleCache => createCache();

/**
 * The page's own antd stylesheet: the styles of every component its renders in `cache` showed, with
 * the style engine's index of them (see src/prerender/antd-stylesheet.tsx), so the app in the
 * browser writes at run time only what the page shows later (the landing's table, a message).
 */
export const pageStylesheet = (cache: StyleCache): string => extractStyle(cache, { plain: true });

/** The markup of `tree`, once every lazy part of it has loaded; a part that cannot render without a browser stops the build, named. */
async function prerenderTree(url: string, tree: ReactNode): Promise<string> {
  // A part that cannot render without a browser would leave a hole in the snapshot: the build stops and names it.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(tree, {
    onError: (error) => void errors.push(error),
    // Every boundary written in place: React would otherwise move large ones to the end of the page
    // with an inline script to put them back, which the content security policy forbids.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  let html = "";
  for await (const chunk of prelude) html += String(chunk);
  if (errors.length > 0)
    throw new Error(
      `The snapshot of ${url} could not be rendered: ${errors.map((error) => (error instanceof Error ? (error.stack ?? error.message) : String(error))).join("\n")}`,
    );
  if (html.includes('<template id="B:'))
    throw new Error(`The snapshot of ${url} has a part left for a script to fill in`);
  return html;
}

/**
 * The portal's frame with a page's title (src/components/layouts/portal-shell.tsx) for a page load on
 * `url`, in the light mode, with its styles: the rules by width, then antd's `<style>` elements.
 */
export async function renderPortalShell(
  url: string,
  title: string,
  cache: StyleCache = createCache(),
): Promise<RenderedPage & { shellStyle: string }> {
  // The frame shows in the light mode only: its switch drawn at "system", most people's choice (and the default), which is light here.
  setColourModeEnvironment(fixedColourMode("system"));
  const html = await prerenderTree(
    url,
    <StrictMode>
      <StyleProvider cache={cache}>
        <StaticRouter location={url}>
          <ConfigProvider theme={antdTheme("light", { reducedMotion: false })}>
            <AppFrame>
              <PortalShell title={title} />
            </AppFrame>
          </ConfigProvider>
        </StaticRouter>
      </StyleProvider>
    </StrictMode>,
  );
  return { html, styles: extractStyle(cache), shellStyle: PORTAL_SHELL_STYLE };
}

/**
 * Renders `url` for a narrow (phone) or wide screen once every lazy part of it has loaded (React's
 * static prerender waits for Suspense). The styles returned are those in `cache`: this render's,
 * and those of the renders that shared it before.
 */
export async function renderPage(
  url: string,
  mode: ColourMode,
  screen: "narrow" | "wide",
  cache: StyleCache = createCache(),
): Promise<RenderedPage> {
  // A signed-out visitor's session clears the server's cookie at start; there is no server here.
  // The build's own fetch comes back afterwards: this runs inside the Vite build's process.
  const buildFetch = globalThis.fetch;
  globalThis.fetch = async () => new Response(null, { status: 204 });
  try {
    setColourModeEnvironment(fixedColourMode(mode));
    // Nothing here reaches the network: a signed-out visitor never starts the identity SDK, and the config is not read.
    const services = servicesFor(
      {
        releaseApiBaseUrl: "",
        firebase: { apiKey: "", authDomain: "", projectId: "" },
        authEmulatorUrl: null,
        passwordPolicyUrl: null,
      },
      false,
    );
    const releaseCheck = new ReleaseCheck({
      currentBuildId: null,
      storage: null,
      window: quiet,
      document: { ...quiet, visibilityState: "hidden" },
    });
    const html = await prerenderTree(
      url,
      <StrictMode>
        <StyleProvider cache={cache}>
          <SnapshotScreen.Provider value={screen}>
            <App
              services={services}
              releaseCheck={releaseCheck}
              Router={({ children }) => <StaticRouter location={url}>{children}</StaticRouter>}
            />
          </SnapshotScreen.Provider>
        </StyleProvider>
      </StrictMode>,
    );
    return { html, styles: extractStyle(cache) };
  } finally {
    globalThis.fetch = buildFetch;
  }
}

/** A route of the app and the module of its page, for the build's preload lists (scripts/lib/prerender.ts). */
export interface RoutePageModule {
  path: string;
  layout: LayoutName;
  publicSite: boolean;
  /** The page's name in the menu and the browser's tab. */
  label: string;
  /** The page's module, relative to the project (`src/pages/dashboard/index.tsx`); null for a page that is not lazy. */
  module: string | null;
}

type PageModuleHook = (module: string, load: () => Promise<unknown>) => Promise<unknown>;
const hooks = globalThis as { __pageModule?: PageModuleHook };
/** Set while routePageModules() asks each page which module it loads, without loading it. */
let asked: { module: string | null } | null = null;
// The build of this renderer wraps each lazy page's import (scripts/lib/prerender.ts, pageModuleNames):
// a snapshot's render loads the page; routePageModules() only reads its name.
hooks.__pageModule = (module, load) => {
  if (!asked) return load();
  asked.module = module;
  return Promise.reject(new Error("only the module's name was asked for"));
};

/** Every route in the order the app matches them, with its page's module. */
export async function routePageModules(): Promise<RoutePageModule[]> {
  const routes: RoutePageModule[] = [];
  for (const route of flattenRoutes()) {
    asked = { module: null };
    // Answered at once; awaited so that the page forgets the refusal before the next route asks (a list and its drawers share one page).
    const answered = route.page.component.preload?.().catch(() => undefined);
    const { module } = asked;
    asked = null;
    await answered;
    routes.push({ path: route.path, layout: route.layout, publicSite: route.publicSite, label: route.label, module });
  }
  return routes;
}

export { renderAntdStylesheet, STYLESHEET_COMPONENTS } from "./antd-stylesheet";
