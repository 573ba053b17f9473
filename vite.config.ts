import react from "@vitejs/plugin-react";
import { type Plugin, defineConfig } from "vite";

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

/** Writes build-manifest.json, which the running app polls to notice a new release. */
function buildManifest(): Plugin {
  const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
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

export default defineConfig({
  plugins: [react(), buildManifest()],
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
});
