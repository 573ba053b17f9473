import { type ReactNode, useEffect } from "react";
import { errorState } from "../components/app-error-boundary";
import { DialogHost, loadDialogFrames } from "../components/dialog-host";
import { KeepAliveRoutes } from "../components/keep-alive-routes";
import { whenIdle } from "../lib/idle";
import { releaseSnapshot } from "../lib/snapshot";
import { useSessionState } from "../providers/session-context";
import { keepAliveFor, keepAliveKey } from "../routing/registry";

const pageRendered = () => {
  errorState.navigationRendered();
  // The app's page is on screen: the build's snapshot of it (public pages) has done its part.
  releaseSnapshot(document);
};

/** The route tree's pages, kept alive for the person signed in (undefined until the session is known). */
export function PageRoutes({ routes }: { routes: ReactNode }) {
  const { ready, user } = useSessionState();
  return (
    <KeepAliveRoutes
      owner={ready ? (user?.uid ?? null) : undefined}
      keep={keepAliveFor}
      keyOf={keepAliveKey}
      onRendered={pageRendered}
    >
      {routes}
    </KeepAliveRoutes>
  );
}

/**
 * The dialogs, above every layout so they survive page switches. Inside the shell that shows the
 * pages (public site or portal), so a dialog's content can use what that shell provides (Refine's
 * hooks in the portal); dialogs live in a store, so one opened while the portal loads shows when it has.
 * The portal opens dialogs often: with `prefetchDialogs` their code is fetched once the browser is
 * idle, so the first one shows at once; the public site fetches it when one opens.
 */
export function AppChrome({ prefetchDialogs = false }: { prefetchDialogs?: boolean }) {
  useEffect(() => {
    // A failed prefetch is not an error: the host tries again, and says so, when a dialog opens.
    if (prefetchDialogs) whenIdle(() => void loadDialogFrames().catch(() => undefined));
  }, [prefetchDialogs]);
  return <DialogHost />;
}
