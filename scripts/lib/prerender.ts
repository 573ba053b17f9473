/**
 * Snapshots of the public pages, written at build time (vite.config.ts runs this after the bundle,
 * before precompression): `dist/pages/<path>.html` is `index.html` with the page already rendered
 * in it (light mode) with the part of antd's styles it uses. The server sends it for that path instead of the
 * bare `index.html` (server/http/static.ts), so a visitor on a phone reads the page before the
 * JavaScript has arrived; the app takes over when its own render is ready (src/lib/snapshot.ts).
 *
 * The pages are rendered by the real app (src/prerender/render-page.tsx), bundled for Node by a
 * second Vite build into a temporary folder.
 */
import react from "@vitejs/plugin-react";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { SNAPSHOT_CLASS, SNAPSHOT_STYLE } from "../../src/lib/snapshot";
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

/** Where a path's snapshot is written under dist/, and read by the server. */
export function snapshotFile(pagePath: string): string {
  return path.join("pages", pagePath === "/" ? "index.html" : `${pagePath.slice(1)}.html`);
}

type Rendered = { html: string; styles: string };
type RenderPage = (url: string, mode: "light" | "dark", screen: "narrow" | "wide") => Promise<Rendered>;

export async function bundleRenderer(root: string): Promise<{ renderPage: RenderPage; dispose: () => void }> {
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
  const module = (await import(pathToFileURL(path.join(outDir, "render-page.mjs")).href)) as { renderPage: RenderPage };
  return { renderPage: module.renderPage, dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}

/** The CSS text of antd's extracted `<style>` elements, without the style engine's own bookkeeping entry. */
export function stylesheetText(styleElements: string): string {
  let css = "";
  for (const match of styleElements.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)) if (!match[1].includes("data-ant-cssinjs-cache-path")) css += match[2];
  return css;
}

const snapshotElement = (screen: "narrow" | "wide", html: string) => `<div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-${screen}" inert aria-hidden="true">${html}</div>`;

/**
 * `index.html` with a page's snapshots (for narrow and wide screens) before the app's root and the CSS they use in the head. The
 * app's entry is not a module script of the page but started by public/start-after-paint.js, after
 * the first paint. The styles are plain: antd's style engine in the browser neither sees nor reuses
 * them, and they go with the snapshot (src/lib/snapshot.ts).
 */
export function withSnapshot(indexHtml: string, narrow: Rendered, wide: Rendered): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(indexHtml);
  if (!entry || !indexHtml.includes('<div id="root"></div>') || !indexHtml.includes("</head>")) {
    throw new Error("index.html has no module entry, no empty #root or no </head>: cannot place a snapshot");
  }
  const preloads = [...indexHtml.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
  let html = indexHtml.replace(entry[0], "");
  for (const preload of preloads) html = html.replace(preload[0], "");
  const css = criticalCss(stylesheetText(narrow.styles + wide.styles), classesInMarkup(narrow.html + wide.html));
  const start = `<script src="/start-after-paint.js" data-entry="${entry[1]}" data-preload="${preloads.map((preload) => preload[1]).join(" ")}"></script>`;
  return html
    .replace("</head>", `<style data-${SNAPSHOT_CLASS}>${SNAPSHOT_STYLE}\n${css}</style></head>`)
    .replace('<div id="root"></div>', `${snapshotElement("narrow", narrow.html)}${snapshotElement("wide", wide.html)}<div id="root"></div>${start}`);
}

/** Writes every snapshot into `outDir` (the built app). */
export async function prerenderPages(outDir: string, root = process.cwd()): Promise<void> {
  const indexHtml = readFileSync(path.join(outDir, "index.html"), "utf8");
  const { renderPage, dispose } = await bundleRenderer(root);
  try {
    for (const pagePath of SNAPSHOT_PATHS) {
      const file = path.join(outDir, snapshotFile(pagePath));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, withSnapshot(indexHtml, await renderPage(pagePath, "light", "narrow"), await renderPage(pagePath, "light", "wide")));
    }
  } finally {
    dispose();
  }
}
