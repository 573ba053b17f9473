import { identityErrorMessage } from "../lib/identity-errors";
import { loadRuntimeConfig, type RuntimeConfig } from "../lib/runtime-config";
import { signOutNotice } from "../lib/sign-out-notice";
import { chooseBackend } from "./backend";
import { createDataProvider } from "./data-provider";
import { createHttpClient } from "./http";
import { configureIdentity } from "./identity-startup";
import { notificationProvider } from "./notification-provider";
import { createSession, hasSavedIdentityUser } from "./session";

/**
 * Everything the app needs before its first render, wired once. What only the portal uses (Refine's
 * query cache, auth and access-control providers) is made when the portal opens
 * (src/providers/portal-services.ts), so the public pages load without it.
 */
export async function createServices() {
  const runtimeConfig = await loadRuntimeConfig();
  // Read before the SDK restores (or drops) the saved session.
  return servicesFor(runtimeConfig, hasSavedIdentityUser());
}

/**
 * The services for a runtime configuration; `hadSavedUser` false starts as a signed-out visitor
 * without the identity SDK (as the build renders the public pages, src/prerender/render-page.tsx).
 */
export function servicesFor(runtimeConfig: RuntimeConfig, hadSavedUser: boolean) {
  // The SDK starts on first use, from the session or an identity page, and the session follows it.
  configureIdentity(runtimeConfig, (sdk) => session.attach(sdk));
  const backend = chooseBackend({
    mode: import.meta.env.MODE,
    offlineBaseUrl: import.meta.env.VITE_OFFLINE_API_URL ?? "",
    releaseBaseUrl: async () => runtimeConfig.releaseApiBaseUrl,
  });
  let tokenSource: (forceRefresh: boolean) => Promise<string | null> = async () => null;
  const http = createHttpClient({
    baseUrl: async () => (await backend).baseUrl,
    getToken: (forceRefresh) => tokenSource(forceRefresh),
  });
  const session = createSession(
    // Loads the SDK (once) and starts it: the session follows its token from then on.
    () => import("./firebase").then((module) => module.identitySdk()),
    async (token) => {
      await http.post("/api/__session", { token }, { anonymous: true });
    },
    {
      hadSavedUser,
      onForcedSignOut: (code) =>
        notificationProvider.open?.({
          key: "forced-sign-out",
          type: "error",
          message: "You have been signed out",
          description: code
            ? identityErrorMessage({ code })
            : "Your account was disabled or signed out on every device. Sign in again.",
        }),
    },
  );
  tokenSource = session.token;
  // Someone signed in again: the reason the last session ended is old news.
  session.subscribe((state) => {
    if (state.user) signOutNotice.clear();
  });
  return {
    runtimeConfig,
    session,
    http,
    dataProvider: createDataProvider(http),
  };
}

export type Services = ReturnType<typeof servicesFor>;
