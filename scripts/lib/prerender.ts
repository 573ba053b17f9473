/**
 * Snapshots of the public pages, written at build time (vite.config.ts runs this after the bundle,
 * before precompression): `dist/pages/<path>.html` is `index.html` with the page already rendered
 * in it (light mode) with the part of antd's styles it uses. The server sends it for that path
 * instead of the bare `index.html` (server/http/static.ts), so a visitor on a phone reads the page before the
 * JavaScript has arrived; the app takes over when its own render is ready (src/lib/snapshot.ts).
 *
 * The pages are rendered by the real app (src/prerender/render-page.tsx), bundled for Node by a
 * second Vite build into a temporary folder.
 */
import react from "@vitejs/plugin-react";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { SNAPSHOT_CLASS } from "../../src/lib/snapshot";
import { classesInMarkup, criticalCss } from "./critical-css";

/**
 * Public pages a visitor lands on, with a fixed path and nothing in the query that changes them.
 * Pages reached from an email or the app (account confirmation, email actions) are not here: they
 * depend on their query string; nor is /download-app, whose QR code names the site's own address.
 */
export const SNAPSHOT_PATHS = [
  "/",
  "/faqs",
  "/login",
  "/about-us",
  "/contact-us",
  "/legal/terms",
  "/legal/privacy",
  "/demo-request",
  "/dealer-account-request",
  "/create-account",
  "/forgot-password",
] as const;

/**
 * The snapshot shows in the light mode only (public/colour-mode.js marks the mode before the body),
 * and the app's root waits unseen under it. Here rather than in src/lib/snapshot.ts: only the build
 * writes it, and the browser's bundle need not carry it.
 */
export const SNAPSHOT_STYLE = [
  `html.dark .${SNAPSHOT_CLASS} { display: none }`,
  // One snapshot per screen: narrow below antd's md breakpoint (768 px), where the landing's links move into a drawer.
  `@media (min-width: 768px) { .${SNAPSHOT_CLASS}-narrow { display: none } }`,
  `@media (max-width: 767.98px) { .${SNAPSHOT_CLASS}-wide { display: none } }`,
  `html:not(.dark) .${SNAPSHOT_CLASS} ~ #root { position: absolute; top: 0; left: 0; right: 0; visibility: hidden; pointer-events: none }`,
].join("\n");

/** Where a path's snapshot is written under dist/, and read by the server. */
export function snapshotFile(pagePath: string): string {
  return path.join("pages", pagePath === "/" ? "index.html" : `${pagePath.slice(1)}.html`);
}

type Rendered = { html: string; styles: string };
/** antd's style cache of src/prerender/render-page.tsx, opaque here. */
type StyleCache = { readonly __styleCache: unique symbol };
type RenderPage = (url: string, mode: "light" | "dark", screen: "narrow" | "wide", cache?: StyleCache) => Promise<Rendered>;
interface Renderer {
  renderPage: RenderPage;
  newStyleCache: () => StyleCache;
  pageStylesheet: (cache: StyleCache) => string;
  renderAntdStylesheet: () => Promise<string>;
  dispose: () => void;
}

export async function bundleRenderer(root: string): Promise<Renderer> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "portal-prerender-"));
  await build({
    configFile: false,
    root,
    logLevel: "warn",
    plugins: [react()],
    define: { __BUILD_ID__: "null", "process.env.NODE_ENV": JSON.stringify("production") },
    // Everything in the bundle: antd's and Refine's ES modules, and the CSS files the app imports, are not for Node as they are.
    ssr: { noExternal: true },
    build: { ssr: path.join(root, "src/prerender/render-page.tsx"), outDir, emptyOutDir: true, minify: false, rollupOptions: { output: { entryFileNames: "render-page.mjs", chunkFileNames: "assets/[name]-[hash].mjs" } } },
  });
  const module = (await import(pathToFileURL(path.join(outDir, "render-page.mjs")).href)) as Omit<Renderer, "dispose">;
  return { ...module, dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}

/**
 * The CSS text of antd's extracted `<style>` elements, each once (a page's two renders write the
 * same components' styles), without the style engine's own bookkeeping entry.
 */
export function stylesheetText(styleElements: string): string {
  const texts = new Set<string>();
  for (const match of styleElements.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)) if (!match[1].includes("data-ant-cssinjs-cache-path")) texts.add(match[2]);
  return [...texts].join("");
}

const snapshotElement = (screen: "narrow" | "wide", html: string) => `<div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-${screen}" inert aria-hidden="true">${html}</div>`;

/** Matches the entry script Vite writes into index.html, and its module preloads. */
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * `index.html` without its entry script and module preloads, and the tag of public/start-after-paint.js
 * that loads them with antd's stylesheet once the browser has painted the page: a slow phone paints
 * what the HTML holds (a snapshot, or the loading notice) before it loads 60 kB of CSS and parses the
 * app's JavaScript, and antd's style engine finds the sheet in place when the app starts.
 */
function startAfterPaint(indexHtml: string, stylesheet: string): { html: string; start: string } {
  const entry = ENTRY_SCRIPT.exec(indexHtml);
  if (!entry) throw new Error("index.html has no module entry: cannot start the app after the first paint");
  const preloads = [...indexHtml.matchAll(MODULE_PRELOAD)];
  let html = indexHtml.replace(entry[0], "");
  for (const preload of preloads) html = html.replace(preload[0], "");
  const start = `<script src="/start-after-paint.js" data-entry="${entry[1]}" data-preload="${preloads.map((preload) => preload[1]).join(" ")}" data-stylesheet="${stylesheet}"></script>`;
  return { html, start };
}

/** The root element of index.html, holding at most the loading notice. */
const ROOT_ELEMENT = /<div id="root">(?:<div class="app-loading"[^>]*>.*?<\/div>)?<\/div>/;

/**
 * `index.html` with a page's snapshots (for narrow and wide screens) before the app's root and the
 * CSS they use in the head, the app started after the first paint. The styles are plain: antd's
 * style engine in the browser neither sees nor reuses them, and they go with the snapshot
 * (src/lib/snapshot.ts). The root is left empty: a snapshot page does not need the loading notice.
 */
export function withSnapshot(indexHtml: string, narrow: Rendered, wide: Rendered, stylesheet: string): string {
  const rootElement = ROOT_ELEMENT.exec(indexHtml);
  if (!rootElement || !indexHtml.includes("</head>")) throw new Error("index.html has no #root or no </head>: cannot place a snapshot");
  const { html, start } = startAfterPaint(indexHtml, stylesheet);
  const css = criticalCss(stylesheetText(narrow.styles + wide.styles), classesInMarkup(narrow.html + wide.html));
  return html
    .replace("</head>", `<style data-${SNAPSHOT_CLASS}>${SNAPSHOT_STYLE}\n${css}</style></head>`)
    .replace(rootElement[0], `${snapshotElement("narrow", narrow.html)}${snapshotElement("wide", wide.html)}<div id="root"></div>${start}`);
}

/**
 * `index.html` for every page without a snapshot: its loading notice paints first, then the app
 * starts with antd's stylesheet (linked, it would hold back that first paint for the whole sheet).
 */
export function withStartAfterPaint(indexHtml: string, stylesheet: string): string {
  const rootElement = ROOT_ELEMENT.exec(indexHtml);
  if (!rootElement) throw new Error("index.html has no #root: cannot start the app after the first paint");
  const { html, start } = startAfterPaint(indexHtml, stylesheet);
  return html.replace(rootElement[0], `${rootElement[0]}${start}`);
}

/** Writes `css` as an immutable asset named by its content; returns its address. */
function writeStylesheet(outDir: string, css: string): string {
  if (!css.includes(".data-ant-cssinjs-cache-path{")) throw new Error("an antd stylesheet has no index of what it holds: the browser would not use it");
  const href = `/assets/antd-${createHash("sha256").update(css).digest("base64url").slice(0, 10)}.css`;
  writeFileSync(path.join(outDir, href), css);
  return href;
}

/**
 * Writes antd's stylesheets and every snapshot into `outDir` (the built app). index.html, which
 * opens every page of the portal, starts with the sheet of every component; a snapshot page with a
 * sheet of the components it shows (a third of that for the landing), because a phone parses the
 * whole sheet in one go after the first paint.
 */
export async function prerenderPages(outDir: string, root = process.cwd()): Promise<void> {
  const bareIndex = readFileSync(path.join(outDir, "index.html"), "utf8");
  const { renderPage, newStyleCache, pageStylesheet, renderAntdStylesheet, dispose } = await bundleRenderer(root);
  try {
    writeFileSync(path.join(outDir, "index.html"), withStartAfterPaint(bareIndex, writeStylesheet(outDir, await renderAntdStylesheet())));
    for (const pagePath of SNAPSHOT_PATHS) {
      const file = path.join(outDir, snapshotFile(pagePath));
      mkdirSync(path.dirname(file), { recursive: true });
      const cache = newStyleCache();
      const narrow = await renderPage(pagePath, "light", "narrow", cache);
      const wide = await renderPage(pagePath, "light", "wide", cache);
      writeFileSync(file, withSnapshot(bareIndex, narrow, wide, writeStylesheet(outDir, pageStylesheet(cache))));
    }
  } finally {
    dispose();
  }
}
