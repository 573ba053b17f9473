import { QueryClient } from "@tanstack/react-query";
import { identityErrorMessage } from "../lib/identity-errors";
import { type RuntimeConfig, loadRuntimeConfig } from "../lib/runtime-config";
import { signOutNotice } from "../lib/sign-out-notice";
import { guardOf } from "../resources";
import { createAccessControlProvider } from "./access-control";
import { createAuthProvider } from "./auth-provider";
import { chooseBackend } from "./backend";
import { createDataProvider } from "./data-provider";
import { createHttpClient } from "./http";
import { configureIdentity } from "./identity-startup";
import { notificationProvider } from "./notification-provider";
import { createSession, hasSavedIdentityUser } from "./session";
import { isClientError } from "../lib/record-missing";

/** Everything the app needs before its first render, wired once. */
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
          description: code ? identityErrorMessage({ code }) : "Your account was disabled or signed out on every device. Sign in again.",
        }),
    },
  );
  tokenSource = session.token;
  // One retry for a failure that may pass (network, 5xx); a 4xx answer (an unknown id's 404) is the answer.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: (failures, error) => failures < 1 && !isClientError(error), refetchOnWindowFocus: false } } });
  // Cached access decisions and identity belong to the token they were made with.
  session.subscribe((state) => {
    // Someone signed in again: the reason the last session ended is old news.
    if (state.user) signOutNotice.clear();
    void queryClient.invalidateQueries({ queryKey: ["access"] });
    void queryClient.invalidateQueries({ queryKey: ["auth"] });
  });
  return {
    runtimeConfig,
    session,
    http,
    queryClient,
    dataProvider: createDataProvider(http),
    authProvider: createAuthProvider(session, queryClient),
    accessControlProvider: createAccessControlProvider(
      async () => (await session.ready()).role,
      (name) => guardOf(name),
    ),
  };
}

export type Services = ReturnType<typeof servicesFor>;
