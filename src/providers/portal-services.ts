import { QueryClient } from "@tanstack/react-query";
import { isClientError } from "../lib/record-missing";
import { guardOf } from "../routing/registry";
import { createAccessControlProvider } from "./access-control";
import { createAuthProvider } from "./auth-provider";
import type { Services } from "./services";

/** What the portal adds to the app's services: Refine's query cache and its auth and access-control providers. */
function portalServicesFor(services: Services) {
  const { session } = services;
  // One retry for a failure that may pass (network, 5xx); a 4xx answer (an unknown id's 404) is the answer.
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: (failures, error) => failures < 1 && !isClientError(error), refetchOnWindowFocus: false },
    },
  });
  // Cached access decisions and identity belong to the token they were made with.
  session.subscribe(() => {
    void queryClient.invalidateQueries({ queryKey: ["access"] });
    void queryClient.invalidateQueries({ queryKey: ["auth"] });
  });
  return {
    queryClient,
    authProvider: createAuthProvider(session, queryClient),
    accessControlProvider: createAccessControlProvider(
      async () => (await session.ready()).role,
      (name) => guardOf(name),
    ),
  };
}

export type PortalServices = ReturnType<typeof portalServicesFor>;

const made = new WeakMap<Services, PortalServices>();

/** The portal's services for the app's, made the first time the portal opens and kept (one query cache per tab). */
export function portalServices(services: Services): PortalServices {
  let portal = made.get(services);
  if (!portal) {
    portal = portalServicesFor(services);
    made.set(services, portal);
  }
  return portal;
}
