import { type FirebaseApp, initializeApp } from "firebase/app";
import { type Auth, browserLocalPersistence, connectAuthEmulator, initializeAuth } from "firebase/auth";
import type { RuntimeConfig } from "../lib/runtime-config";

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

export function firebaseAuth(): Auth {
  if (!instance) throw new Error("Firebase is not initialised: call initFirebase first");
  return instance.auth;
}
