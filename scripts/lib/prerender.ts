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

import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { iconStyles } from "@ant-design/icons/lib/utils";
import react from "@vitejs/plugin-react";
import { build, type Plugin } from "vite";
import { SNAPSHOT_CLASS } from "../../src/lib/snapshot";
import type { RoutePageModule } from "../../src/prerender/render-page";
import { classesInMarkup, criticalCss } from "./critical-css";
import { splitStylesheet } from "./stylesheet-parts";

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

export type { RoutePageModule };

/** antd's style cache of src/prerender/render-page.tsx, opaque here. */
type StyleCache = { readonly __styleCache: unique symbol };
type RenderPage = (
  url: string,
  mode: "light" | "dark",
  screen: "narrow" | "wide",
  cache?: StyleCache,
) => Promise<Rendered>;
interface Renderer {
  renderPage: RenderPage;
  newStyleCache: () => StyleCache;
  pageStylesheet: (cache: StyleCache) => string;
  renderAntdStylesheet: (only?: readonly string[]) => Promise<string>;
  STYLESHEET_COMPONENTS: readonly string[];
  routePageModules: () => Promise<RoutePageModule[]>;
  renderPortalShell: (url: string, title: string, cache?: StyleCache) => Promise<Rendered & { shellStyle: string }>;
  dispose: () => void;
}

/** `lazyPage(() => import("./list"), …)`: a route page's lazy import (src/routing/lazy-page.ts). */
const LAZY_PAGE_IMPORT = /lazyPage\(\s*\(\)\s*=>\s*import\((["'])([^"']+)\1\)/g;

/**
 * For the renderer's build only: each lazy page's import goes through `globalThis.__pageModule` with
 * the module's name, so the renderer can tell which module each route's page is
 * (src/prerender/render-page.tsx, routePageModules) and the build can preload its chunks.
 */
function pageModuleNames(root: string): Plugin {
  return {
    name: "page-module-names",
    async transform(code, id) {
      if (
        id.includes("/node_modules/") ||
        !id.startsWith(path.join(root, "src")) ||
        !/import \{[^}]*\blazyPage\b[^}]*\} from/.test(code)
      )
        return null;
      let out = "";
      let last = 0;
      for (const match of code.matchAll(LAZY_PAGE_IMPORT)) {
        const resolved = await this.resolve(match[2], id);
        if (!resolved) throw new Error(`${path.relative(root, id)}: the page module ${match[2]} cannot be resolved`);
        const name = JSON.stringify(path.relative(root, resolved.id));
        out += `${code.slice(last, match.index)}lazyPage(() => globalThis.__pageModule(${name}, () => import(${match[1]}${match[2]}${match[1]}))`;
        last = match.index + match[0].length;
      }
      return last === 0 ? null : { code: out + code.slice(last), map: null };
    },
  };
}

export async function bundleRenderer(root: string): Promise<Renderer> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "portal-prerender-"));
  await build({
    configFile: false,
    root,
    logLevel: "warn",
    plugins: [react(), pageModuleNames(root)],
    define: { __BUILD_ID__: "null", "process.env.NODE_ENV": JSON.stringify("production") },
    // Everything in the bundle: antd's and Refine's ES modules, and the CSS files the app imports, are not for Node as they are.
    ssr: { noExternal: true },
    build: {
      ssr: path.join(root, "src/prerender/render-page.tsx"),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { entryFileNames: "render-page.mjs", chunkFileNames: "assets/[name]-[hash].mjs" } },
    },
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
  for (const match of styleElements.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g))
    if (!match[1].includes("data-ant-cssinjs-cache-path")) texts.add(match[2]);
  return [...texts].join("");
}

const snapshotElement = (screen: "narrow" | "wide", html: string) =>
  `<div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-${screen}" inert aria-hidden="true">${html}</div>`;

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
  let html = withIconsStyle(indexHtml.replace(entry[0], ""));
  for (const preload of preloads) html = html.replace(preload[0], "");
  const start = `<script src="/start-after-paint.js" data-entry="${entry[1]}" data-preload="${preloads.map((preload) => preload[1]).join(" ")}" data-stylesheet="${stylesheet}"></script>`;
  return { html, start };
}

/**
 * The style @ant-design/icons writes when the first icon mounts, already in the head and marked as the
 * icons mark it (rc-util's `rc-util-key`): finding it with the same text, they write nothing. Written at
 * run time, it came in the commit that shows a portal page, and the browser parsed it and styled the
 * whole page again there. Before the page's other styles, where the icons put theirs (first, marked as prepended).
 */
export const ICONS_STYLE = `<style data-rc-order="prepend" rc-util-key="@ant-design-icons">${iconStyles}</style>`;

/** The head's first style, stylesheet or script, or its end: where the icons' style goes. */
const FIRST_STYLE_OR_SCRIPT = /<style\b|<link\b[^>]*\brel="stylesheet"|<script\b|<\/head>/;

function withIconsStyle(html: string): string {
  const at = FIRST_STYLE_OR_SCRIPT.exec(html);
  if (!at || !html.includes("</head>"))
    throw new Error("index.html has no </head>: cannot place the icons' style in it");
  return `${html.slice(0, at.index)}${ICONS_STYLE}\n    ${html.slice(at.index)}`;
}

/** A chunk in the build's dist/.vite/chunks.json (vite.config.ts, chunkReport). */
export interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  /** The modules in it (`node_modules/antd/es/table/Table.js`, `src/App.tsx`). */
  modules?: Array<{ id: string }>;
}

/**
 * What a page load on a portal page fetches beside the entry (src/App.tsx, preloadPortalPage): the
 * portal's code, for a page in the portal's frame the frame and its menu's icons (src/shell/layouts.tsx),
 * and the page's own module.
 */
export const PORTAL_MODULES = ["src/portal-app.tsx"];
export const PORTAL_FRAME_MODULES = ["src/components/layouts/portal-layout.tsx", "src/components/menu-icons.tsx"];

/**
 * The chunks a page load fetches beyond the entry's, by route, for public/start-after-paint.js: `files`
 * once, lists as their indexes (`"0 3 4"`): `portal` for every portal page, `frame` for those in its
 * frame, and for each route in the order the app matches them `[path]` (a public page: nothing more)
 * or `[path, inFrame, pageOwn]`.
 */
export interface RoutePreloads {
  files: string[];
  portal: string;
  frame: string;
  /** antd's stylesheets made for portal pages (each its parts' addresses, space-separated), each route's (when it has one) as its fourth item: an index here. */
  sheets?: string[];
  routes: Array<[string] | [string, 0 | 1, string] | [string, 0 | 1, string, number]>;
}

/** Every chunk `fileName` imports, itself included, as the browser would load them. */
function closureOf(chunks: Map<string, ChunkInfo>, fileName: string, into = new Set<string>()): Set<string> {
  if (into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of chunks.get(fileName)?.imports ?? []) closureOf(chunks, imported, into);
  return into;
}

/**
 * Every chunk `fileName` imports, itself included, each after the chunks it imports: the order in which
 * the browser evaluates them (src/routing/route-chunks-evaluate.ts runs them in that order, one a task).
 */
export function dependenciesFirst(
  chunks: Map<string, ChunkInfo>,
  fileName: string,
  seen = new Set<string>(),
  order: string[] = [],
): string[] {
  if (seen.has(fileName)) return order;
  seen.add(fileName);
  for (const imported of chunks.get(fileName)?.imports ?? []) dependenciesFirst(chunks, imported, seen, order);
  order.push(fileName);
  return order;
}

/**
 * `index.html` with the entry's module preloads in the order the browser evaluates their chunks,
 * each after those it imports: public/start-after-paint.js runs them one per task in the order of
 * its tag's list, which is theirs.
 */
export function withEntryImportsInOrder(indexHtml: string, chunkList: ChunkInfo[]): string {
  const { chunks } = chunkGraph(chunkList);
  const entry = chunkList.find((chunk) => chunk.isEntry)!;
  const order = dependenciesFirst(chunks, entry.fileName).map((file) => `/${file}`);
  const links = [...indexHtml.matchAll(MODULE_PRELOAD)];
  const rank = (href: string) => (order.includes(href) ? order.indexOf(href) : order.length);
  const sorted = [...links].sort((a, b) => rank(a[1]) - rank(b[1]));
  let at = 0;
  return indexHtml.replace(MODULE_PRELOAD, () => sorted[at++][0]);
}

/** The build's chunks by file and by the module they stand for, and what the entry loads. */
function chunkGraph(chunkList: ChunkInfo[]) {
  const chunks = new Map(chunkList.map((chunk) => [chunk.fileName, chunk]));
  const byModule = new Map(
    chunkList.filter((chunk) => chunk.facadeModuleId).map((chunk) => [chunk.facadeModuleId, chunk.fileName]),
  );
  const entry = chunkList.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error("the build has no entry chunk");
  return { chunks, byModule, entryLoads: () => closureOf(chunks, entry.fileName) };
}

/** What each portal route's page load loads: the entry, the portal's code, the frame for a page in it, and the page, with all they import. */
export function routeLoads(chunkList: ChunkInfo[], routes: RoutePageModule[]): Map<string, Set<string>> {
  const { chunks, byModule, entryLoads } = chunkGraph(chunkList);
  const loads = new Map<string, Set<string>>();
  for (const route of routes.filter((candidate) => !candidate.publicSite)) {
    const files = entryLoads();
    for (const module of [
      ...PORTAL_MODULES,
      ...(route.layout === "portal" ? PORTAL_FRAME_MODULES : []),
      ...(route.module ? [route.module] : []),
    ]) {
      const fileName = byModule.get(module);
      if (fileName) closureOf(chunks, fileName, files);
    }
    loads.set(route.path, files);
  }
  return loads;
}

/**
 * antd's components among `names` (STYLESHEET_COMPONENTS) whose styles the chunks `files` hold: a
 * component's style module (`antd/es/date-picker/style/…` is DatePicker's, `grid/style` Row's and
 * Col's). Not its folder alone: the modules every page carries include other folders' locale texts
 * and shared helpers (`date-picker/locale`, `modal/locale`), which style nothing.
 */
export function antdComponentsIn(chunkList: ChunkInfo[], files: Set<string>, names: readonly string[]): string[] {
  const byFolder = new Map<string, string[]>(names.map((name) => [name.toLowerCase(), [name]]));
  byFolder.set(
    "grid",
    names.filter((name) => name === "Row" || name === "Col"),
  );
  const found = new Set<string>();
  for (const chunk of chunkList) {
    if (!files.has(chunk.fileName)) continue;
    for (const module of chunk.modules ?? []) {
      const folder = /node_modules\/antd\/es\/([^/]+)\/style\//.exec(module.id)?.[1].replaceAll("-", "");
      for (const name of (folder && byFolder.get(folder)) || []) found.add(name);
    }
  }
  return names.filter((name) => found.has(name));
}

export function routePreloads(
  chunkList: ChunkInfo[],
  routes: RoutePageModule[],
  stylesheets?: Map<string, string>,
): RoutePreloads {
  const { chunks, byModule, entryLoads } = chunkGraph(chunkList);
  // Each file's index in the list written once.
  const fileIndexes = new Map<string, number>();
  const indexOf = (file: string) => fileIndexes.get(file) ?? fileIndexes.set(file, fileIndexes.size).size - 1;
  // The chunks of `modules` not loaded yet, as indexes into the files; they count as loaded from then on.
  const take = (modules: string[], already: Set<string>): string => {
    const indexes: number[] = [];
    for (const module of modules) {
      const fileName = byModule.get(module);
      if (!fileName) throw new Error(`no chunk of the build holds ${module}`);
      for (const file of dependenciesFirst(chunks, fileName)) {
        if (already.has(file)) continue;
        already.add(file);
        indexes.push(indexOf(`/${file}`));
      }
    }
    return indexes.join(" ");
  };
  const portalLoaded = entryLoads();
  const portal = take(PORTAL_MODULES, portalLoaded);
  const frameLoaded = new Set(portalLoaded);
  const frame = take(PORTAL_FRAME_MODULES, frameLoaded);
  const sheets = stylesheets ? [...new Set(stylesheets.values())] : undefined;
  const routeLists = routes.map((route): RoutePreloads["routes"][number] => {
    if (route.publicSite) return [route.path];
    const inFrame = route.layout === "portal";
    const own =
      route.module && byModule.has(route.module)
        ? take([route.module], new Set(inFrame ? frameLoaded : portalLoaded))
        : "";
    const sheet = stylesheets?.get(route.path);
    return sheet && sheets
      ? [route.path, inFrame ? 1 : 0, own, sheets.indexOf(sheet)]
      : [route.path, inFrame ? 1 : 0, own];
  });
  return {
    files: [...fileIndexes.keys()],
    portal,
    frame,
    ...(sheets ? { sheets } : {}),
    routes: routeLists,
  };
}

/** The preload lists as an inert JSON element of the page (a script of that type never runs, whatever the CSP). */
export const routePreloadsElement = (preloads: RoutePreloads): string =>
  `<script type="application/json" id="route-preloads">${JSON.stringify(preloads).replaceAll("<", "\\u003c")}</script>`;

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
  if (!rootElement || !indexHtml.includes("</head>"))
    throw new Error("index.html has no #root or no </head>: cannot place a snapshot");
  const { html, start } = startAfterPaint(indexHtml, stylesheet);
  const css = criticalCss(stylesheetText(narrow.styles + wide.styles), classesInMarkup(narrow.html + wide.html));
  return html
    .replace("</head>", `<style data-${SNAPSHOT_CLASS}>${SNAPSHOT_STYLE}\n${css}</style></head>`)
    .replace(
      rootElement[0],
      `${snapshotElement("narrow", narrow.html)}${snapshotElement("wide", wide.html)}<div id="root"></div>${start}`,
    );
}

/**
 * `index.html` for every page without a snapshot: its loading notice paints first, then the app
 * starts with antd's stylesheet (linked, it would hold back that first paint for the whole sheet).
 */
export function withStartAfterPaint(indexHtml: string, stylesheet: string, preloads?: RoutePreloads): string {
  const rootElement = ROOT_ELEMENT.exec(indexHtml);
  if (!rootElement) throw new Error("index.html has no #root: cannot start the app after the first paint");
  const { html, start } = startAfterPaint(indexHtml, stylesheet);
  return html.replace(rootElement[0], `${rootElement[0]}${preloads ? routePreloadsElement(preloads) : ""}${start}`);
}

/**
 * The portal's frame (src/components/layouts/portal-shell.tsx) shows only to someone signed in
 * (public/colour-mode.js marks the page when the identity SDK has a user saved) in the light mode;
 * anyone else sees the loading notice, as on every page without a snapshot, and is sent on by the app
 * (a visitor signed out to the sign-in page).
 */
export const PORTAL_SHELL_SNAPSHOT_STYLE = [
  `html:not(.signed-in) .${SNAPSHOT_CLASS}, html.dark .${SNAPSHOT_CLASS} { display: none }`,
  `html.signed-in:not(.dark) .${SNAPSHOT_CLASS} ~ #root { position: absolute; top: 0; left: 0; right: 0; visibility: hidden; pointer-events: none }`,
].join("\n");

/** A portal page whose frame the build draws: in the portal's frame, with a fixed path (its title is the route's). */
export const drawsPortalShell = (route: RoutePageModule): boolean =>
  !route.publicSite && route.layout === "portal" && !route.path.includes(":");

/**
 * The title a drawn portal page shows: the page's own, or for a page below another (a tab of the
 * firmware catalogue, a drawer opened over a list, on a route of its own) the title of the page at
 * the top, which is what the app shows above them (tests/e2e/portal-shell.spec.ts holds the two equal).
 */
export function portalShellTitle(route: RoutePageModule, routes: RoutePageModule[]): string {
  const above = routes.filter(
    (candidate) =>
      drawsPortalShell(candidate) && (route.path === candidate.path || route.path.startsWith(`${candidate.path}/`)),
  );
  return above.reduce((top, candidate) => (candidate.path.length < top.path.length ? candidate : top), route).label;
}

/**
 * `index.html` for a portal page: the portal's frame with the page's title before the app's root,
 * which keeps its loading notice for those who do not see the frame; the CSS the frame uses in the
 * head; the app started after the first paint with the chunks of every route, as index.html.
 */
export function withPortalShell(
  indexHtml: string,
  shell: Rendered & { shellStyle: string },
  stylesheet: string,
  preloads: RoutePreloads,
): string {
  const rootElement = ROOT_ELEMENT.exec(indexHtml);
  if (!rootElement || !indexHtml.includes("</head>"))
    throw new Error("index.html has no #root or no </head>: cannot place the portal's frame");
  const { html, start } = startAfterPaint(indexHtml, stylesheet);
  const css = criticalCss(stylesheetText(shell.styles), classesInMarkup(shell.html));
  return html
    .replace(
      "</head>",
      `<style data-${SNAPSHOT_CLASS}>${PORTAL_SHELL_SNAPSHOT_STYLE}\n${css}\n${shell.shellStyle}</style></head>`,
    )
    .replace(
      rootElement[0],
      `<div class="${SNAPSHOT_CLASS}" inert aria-hidden="true">${shell.html}</div>${rootElement[0]}${routePreloadsElement(preloads)}${start}`,
    );
}

/**
 * Writes `css` as immutable assets named by their content, in parts parsed apart
 * (scripts/lib/stylesheet-parts.ts); returns their addresses in order, separated by spaces, as
 * public/start-after-paint.js reads them.
 */
function writeStylesheet(outDir: string, css: string): string {
  if (!css.includes(".data-ant-cssinjs-cache-path{"))
    throw new Error("an antd stylesheet has no index of what it holds: the browser would not use it");
  return splitStylesheet(css)
    .map((part) => {
      const href = `/assets/antd-${createHash("sha256").update(part).digest("base64url").slice(0, 10)}.css`;
      writeFileSync(path.join(outDir, href), part);
      return href;
    })
    .join(" ");
}

/**
 * Writes antd's stylesheets and every snapshot into `outDir` (the built app). index.html, which
 * opens every page of the portal, starts with the sheet of every component; a snapshot page with a
 * sheet of the components it shows (a third of that for the landing), because a phone parses the
 * whole sheet in one go after the first paint.
 */
export async function prerenderPages(outDir: string, root = process.cwd()): Promise<void> {
  const builtIndex = readFileSync(path.join(outDir, "index.html"), "utf8");
  const {
    renderPage,
    newStyleCache,
    pageStylesheet,
    renderAntdStylesheet,
    STYLESHEET_COMPONENTS,
    routePageModules,
    renderPortalShell,
    dispose,
  } = await bundleRenderer(root);
  try {
    const chunks = JSON.parse(readFileSync(path.join(outDir, ".vite/chunks.json"), "utf8")) as ChunkInfo[];
    const bareIndex = withEntryImportsInOrder(builtIndex, chunks);
    const routes = await routePageModules();
    // Each portal page's own antd sheet: the components its first load imports (a phone parses the whole
    // sheet in one task); the same set makes one sheet. What a page shows later the engine writes then.
    const sheetOfComponents = new Map<string, string>();
    const sheetFor = async (components: readonly string[]): Promise<string> => {
      const key = components.join(" ");
      const written = sheetOfComponents.get(key) ?? writeStylesheet(outDir, await renderAntdStylesheet(components));
      sheetOfComponents.set(key, written);
      return written;
    };
    const stylesheets = new Map<string, string>();
    for (const [routePath, files] of routeLoads(chunks, routes))
      stylesheets.set(routePath, await sheetFor(antdComponentsIn(chunks, files, STYLESHEET_COMPONENTS)));
    const preloads = routePreloads(chunks, routes, stylesheets);
    // index.html opens every other page (an unknown path, the docs): with every component's styles.
    writeFileSync(
      path.join(outDir, "index.html"),
      withStartAfterPaint(bareIndex, await sheetFor(STYLESHEET_COMPONENTS), preloads),
    );
    for (const route of routes.filter(drawsPortalShell)) {
      const file = path.join(outDir, snapshotFile(route.path));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(
        file,
        withPortalShell(
          bareIndex,
          await renderPortalShell(route.path, portalShellTitle(route, routes)),
          stylesheets.get(route.path) ?? "",
          preloads,
        ),
      );
    }
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
