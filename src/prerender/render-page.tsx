/**
 * The build's snapshot of a public page (scripts/lib/prerender.ts runs this in Node after
 * `vite build`): the real app rendered for one URL, as a signed-out visitor, in one colour mode,
 * with antd's styles for exactly what it shows. A phone paints the snapshot as soon as the HTML
 * arrives; the app replaces it when its own render of the page is ready (src/lib/snapshot.ts).
 */
import { StyleProvider, createCache, extractStyle } from "@ant-design/cssinjs";
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router";
import { App } from "../App";
import { setColourModeEnvironment } from "../components/colour-mode-switch";
import { SnapshotScreen } from "../components/layouts/snapshot-screen";
import type { ColourMode } from "../lib/colour-mode";
import { ReleaseCheck } from "../lib/release-check";
import { servicesFor } from "../providers/services";

export interface RenderedPage {
  /** The markup inside the app's root element. */
  html: string;
  /** antd's `<style>` elements for that markup. */
  styles: string;
}

const quiet = { addEventListener() {}, removeEventListener() {} };

/** A colour mode fixed for one render: nothing stored, no system preference, no document to mark. */
function fixedColourMode(mode: ColourMode) {
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

/**
 * Renders `url` for a narrow (phone) or wide screen once every lazy part of it has loaded (React's
 * static prerender waits for Suspense). The styles returned are those in `cache`: this render's,
 * and those of the renders that shared it before.
 */
export async function renderPage(url: string, mode: ColourMode, screen: "narrow" | "wide", cache: StyleCache = createCache()): Promise<RenderedPage> {
  // A signed-out visitor's session clears the server's cookie at start; there is no server here.
  // The build's own fetch comes back afterwards: this runs inside the Vite build's process.
  const buildFetch = globalThis.fetch;
  globalThis.fetch = async () => new Response(null, { status: 204 });
  try {
    setColourModeEnvironment(fixedColourMode(mode));
    // Nothing here reaches the network: a signed-out visitor never starts the identity SDK, and the config is not read.
    const services = servicesFor({ releaseApiBaseUrl: "", firebase: { apiKey: "", authDomain: "", projectId: "" }, authEmulatorUrl: null }, false);
    const releaseCheck = new ReleaseCheck({ currentBuildId: null, storage: null, window: quiet, document: { ...quiet, visibilityState: "hidden" } });
    // A part that cannot render without a browser would leave a hole in the snapshot: the build stops and names it.
    const errors: unknown[] = [];
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <StyleProvider cache={cache}>
          <SnapshotScreen.Provider value={screen}>
            <App services={services} releaseCheck={releaseCheck} Router={({ children }) => <StaticRouter location={url}>{children}</StaticRouter>} />
          </SnapshotScreen.Provider>
        </StyleProvider>
      </StrictMode>,
      // Every boundary written in place: React would otherwise move large ones to the end of the page
      // with an inline script to put them back, which the content security policy forbids.
      { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    let html = "";
    for await (const chunk of prelude) html += String(chunk);
    if (errors.length > 0) throw new Error(`The snapshot of ${url} could not be rendered: ${errors.map((error) => (error instanceof Error ? (error.stack ?? error.message) : String(error))).join("\n")}`);
    if (html.includes('<template id="B:')) throw new Error(`The snapshot of ${url} has a part left for a script to fill in`);
    return { html, styles: extractStyle(cache) };
  } finally {
    globalThis.fetch = buildFetch;
  }
}

export { renderAntdStylesheet } from "./antd-stylesheet";
