import type { RuntimeConfig } from "../lib/runtime-config";
import type { IdentitySdk } from "./session";

/**
 * What the identity SDK needs when it first loads, without importing it: the SDK (about 30 kB
 * gzipped) loads when someone signs in, opens an identity page, or had a session saved, never on a
 * signed-out visitor's first page. src/providers/firebase.ts reads this when it starts the SDK.
 */
let startup: { config: RuntimeConfig; onStart: (sdk: IdentitySdk) => void } | null = null;

export function configureIdentity(config: RuntimeConfig, onStart: (sdk: IdentitySdk) => void): void {
  startup = { config, onStart };
}

export function identityStartup(): { config: RuntimeConfig; onStart: (sdk: IdentitySdk) => void } {
  if (!startup) throw new Error("Identity is not configured: call configureIdentity first");
  return startup;
}
