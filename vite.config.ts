import react from "@vitejs/plugin-react";
import { type Plugin, defineConfig } from "vite";

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

export default defineConfig(({ command }) => ({
  plugins: [react(), buildManifest()],
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
  },
  worker: { format: "es" },
}));
