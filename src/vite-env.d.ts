/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of a local API to prefer in development and test builds ("" is this page's origin). */
  readonly VITE_OFFLINE_API_URL?: string;
}

/** The id of this build, as in build-manifest.json; null in development (vite.config.ts). */
declare const __BUILD_ID__: string | null;
