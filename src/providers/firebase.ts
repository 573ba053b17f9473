import { type FirebaseApp, initializeApp } from "firebase/app";
import {
  type Auth,
  browserLocalPersistence,
  connectAuthEmulator,
  initializeAuth,
  onIdTokenChanged,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signOut,
} from "firebase/auth";
import type { RuntimeConfig } from "../lib/runtime-config";
import { identityStartup } from "./identity-startup";
import type { IdentitySdk } from "./session";

let instance: { app: FirebaseApp; auth: Auth } | null = null;

/** One Firebase app per page; locally it talks to the Auth emulator named by /config.json. */
export function initFirebase(config: RuntimeConfig): { app: FirebaseApp; auth: Auth } {
  if (instance) return instance;
  const app = initializeApp(config.firebase);
  const auth = initializeAuth(app, { persistence: browserLocalPersistence });
  if (config.authEmulatorUrl) connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });
  instance = { app, auth };
  return instance;
}

/**
 * The SDK's auth, started on first use (this module is loaded lazily: src/providers/identity-startup.ts)
 * and handed to the session so it follows the token whichever page started it.
 */
export function firebaseAuth(): Auth {
  if (instance) return instance.auth;
  const { config, onStart } = identityStartup();
  const { auth } = initFirebase(config);
  onStart(sdkOf(auth));
  return auth;
}

const sdkOf = (auth: Auth): IdentitySdk => ({
  auth,
  onIdTokenChanged,
  signOut,
  signInWithEmailAndPassword,
  signInWithCustomToken,
});

export function identitySdk(): IdentitySdk {
  return sdkOf(firebaseAuth());
}
