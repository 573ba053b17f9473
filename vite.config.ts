import react from "@vitejs/plugin-react";
import path from "node:path";
import { type Plugin, defineConfig } from "vite";
import { precompressDir } from "./scripts/lib/precompress";

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

/** Brotli and gzip copies of every built text file, served by content negotiation (server/http/static.ts). */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), buildManifest(), precompress()],
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
    // dist/.vite/manifest.json: the chunk graph the bundle budgets and bench/first-load.ts read.
    manifest: true,
  },
  worker: { format: "es" },
}));
