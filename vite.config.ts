import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { precompressDir } from "./scripts/lib/precompress";
import { prerenderPages } from "./scripts/lib/prerender";

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

/**
 * One id per build: baked into the bundle as __BUILD_ID__ and written to build-manifest.json,
 * which the running app polls to notice a new release (src/lib/release-check.ts).
 */
const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function buildManifest(): Plugin {
  return {
    name: "build-manifest",
    apply: "build",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "build-manifest.json",
        source: JSON.stringify({ buildId, builtAt: new Date().toISOString() }),
      });
    },
  };
}

/** A module's id relative to the project; node_modules may be a link to another checkout's. */
function moduleName(id: string): string {
  const plain = id.replace(/^\0/, "");
  const inPackages = plain.lastIndexOf("/node_modules/");
  return inPackages >= 0 ? plain.slice(inPackages + 1) : path.relative(process.cwd(), plain);
}

/**
 * .vite/chunks.json: every JavaScript chunk with its static and dynamic imports and the modules in it
 * (largest first), so the bundle budgets (tests/unit/scripts/lib/bundle-budget.test.ts) and bench/first-load.ts
 * can say what a chunk pulls in.
 */
function chunkReport(): Plugin {
  return {
    name: "chunk-report",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle)
        .filter((output) => output.type === "chunk")
        .map((chunk) => ({
          fileName: chunk.fileName,
          name: chunk.name,
          isEntry: chunk.isEntry,
          isDynamicEntry: chunk.isDynamicEntry,
          facadeModuleId: chunk.facadeModuleId ? path.relative(process.cwd(), chunk.facadeModuleId) : null,
          imports: chunk.imports,
          dynamicImports: chunk.dynamicImports,
          modules: Object.entries(chunk.modules)
            .map(([id, info]) => ({ id: moduleName(id), bytes: info.renderedLength }))
            .filter((module) => module.bytes > 0)
            .sort((a, b) => b.bytes - a.bytes),
        }));
      this.emitFile({ type: "asset", fileName: ".vite/chunks.json", source: JSON.stringify(chunks) });
    },
  };
}

/**
 * The public pages' snapshots (scripts/lib/prerender.ts), then Brotli and gzip copies of every built
 * text file, snapshots included, served by content negotiation (server/http/static.ts).
 */
function snapshotsAndPrecompress(): Plugin {
  let outDir = "dist";
  return {
    name: "snapshots-and-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await prerenderPages(outDir);
      await precompressDir(outDir);
    },
  };
}

/**
 * Packages that do nothing when imported, which their package.json does not say (no "sideEffects"
 * field): without this the bundler keeps them whole wherever something imports them, used or not.
 * Refine's antd package imports a markdown renderer (react-markdown, remark-gfm and the micromark
 * and unified pipeline under them, ~52 kB gzipped) for a MarkdownField the portal never shows, and
 * it rode in the portal's frame on every signed-in page; Refine's core imports a CSV parser (papaparse)
 * for its import and export hooks, which the portal does not use either. antd's own components
 * (rc-*, @rc-component/*) are plain React modules that say nothing either: through their index
 * modules the landing carried rc-field-form and its validator (~10 kB gzipped) for a form it does
 * not show, because antd's Drawer imports the form context from rc-field-form's index.
 */
const UNUSED_WHEN_UNIMPORTED = [
  {
    test: /\/node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-util-[^/]+|hast-util-[^/]+|unist-[^/]+|unified|vfile[^/]*|property-information|space-separated-tokens|comma-separated-tokens|style-to-object|inline-style-parser|markdown-table|parse-entities|character-entities[^/]*|ccount|longest-streak|repeat-string|zwitch|bail|trough|is-plain-obj|extend|xtend|is-buffer|escape-string-regexp|papaparse)\//,
    sideEffects: false,
  },
  { test: /\/node_modules\/(rc-[^/]+|@rc-component\/[^/]+)\//, sideEffects: false },
];

/**
 * antd's foundations in one group (cut in three chunks below): its style engine and theme, the utilities and motion every
 * component uses, and the small packages under them. Left to the bundler, these were cut into a
 * chunk for every set of pages that shares a few of them (a signed-in dashboard fetched 183 files,
 * 95 of them under 2 KiB), and each file costs a request's headers and its own compression; most of
 * them are on every first load anyway. Three of antd's utilities stay out: they import the form
 * context, ConfigProvider or Button, and the group would pull those (and rc-field-form) along into
 * the landing's first load (tests/unit/scripts/lib/bundle-budget.test.ts would say so).
 */
const isAntdBase = (id: string): boolean =>
  /node_modules[\\/](antd[\\/]es[\\/](style|_util|theme)[\\/]|rc-util[\\/]|rc-motion[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors)[\\/]|@rc-component[\\/](util|portal|context)[\\/]|classnames[\\/]|@babel[\\/]runtime[\\/]|react-is[\\/])/.test(
    id,
  ) && !/_util[\\/](ContextIsolator|PurePanel|ActionButton)\.js$/.test(id);

/**
 * That group in three chunks, each importing only those before it: the utilities (rc-util, Babel's
 * helpers, classnames), then the style engine and motion, then antd's own theme, style and utilities.
 * The start script evaluates the first load's chunks one per task (public/start-after-paint.js), and
 * as one chunk it was the longest task of a portal page's load (antd's preset colours are computed as
 * it is evaluated); split, that work spreads over shorter tasks (measured by bench/lighthouse.ts).
 */
const isAntdUtil = (id: string): boolean =>
  isAntdBase(id) &&
  /node_modules[\\/](rc-util|classnames|@babel[\\/]runtime|react-is|@rc-component[\\/](util|portal|context))[\\/]/.test(
    id,
  );
const isAntdEngine = (id: string): boolean => isAntdBase(id) && !/node_modules[\\/]antd[\\/]/.test(id);

export default defineConfig(({ command }) => ({
  plugins: [react(), buildManifest(), chunkReport(), snapshotsAndPrecompress()],
  // The dev server writes no manifest: null makes the first manifest read the baseline.
  define: { __BUILD_ID__: JSON.stringify(command === "build" ? buildId : null) },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { "/api": apiTarget, "/config.json": apiTarget },
  },
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
    rolldownOptions: {
      treeshake: { moduleSideEffects: UNUSED_WHEN_UNIMPORTED },
      // uPlot in a chunk of its own, not inside the data log's view: a page's chunks are evaluated one
      // per task (src/routing/route-chunks-evaluate.ts), and uPlot's ~120 kB alone made that task long.
      // react-dom (with React's scheduler) apart from the entry for the same reason: with it, the entry's
      // evaluation is one long task; apart, react-dom is evaluated in a task of its own before it.
      output: {
        codeSplitting: {
          groups: [
            { name: "react-dom", test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: "antd-util", test: isAntdUtil },
            { name: "antd-engine", test: isAntdEngine },
            { name: "antd-base", test: isAntdBase },
            { name: "uplot", test: /node_modules[\\/]uplot[\\/]/ },
          ],
        },
      },
    },
  },
  worker: { format: "es" },
}));
