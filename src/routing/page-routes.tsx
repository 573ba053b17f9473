import type { ReactNode } from "react";
import { errorState } from "../components/app-error-boundary";
import { DialogHost } from "../components/dialog-host";
import { KeepAliveRoutes } from "../components/keep-alive-routes";
import { releaseSnapshot } from "../lib/snapshot";
import { useSessionState } from "../providers/session-context";
import { keepAliveFor, keepAliveKey } from "./registry";

const pageRendered = () => {
  errorState.navigationRendered();
  // The app's page is on screen: the build's snapshot of it (public pages) has done its part.
  releaseSnapshot(document);
};

/** The route tree's pages, kept alive for the person signed in (undefined until the session is known). */
export function PageRoutes({ routes }: { routes: ReactNode }) {
  const { ready, user } = useSessionState();
  return (
    <KeepAliveRoutes owner={ready ? (user?.uid ?? null) : undefined} keep={keepAliveFor} keyOf={keepAliveKey} onRendered={pageRendered}>
      {routes}
    </KeepAliveRoutes>
  );
}

/**
 * The dialogs, above every layout so they survive page switches. Inside the shell that shows the
 * pages (public site or portal), so a dialog's content can use what that shell provides (Refine's
 * hooks in the portal); dialogs live in a store, so one opened while the portal loads shows when it has.
 */
export function AppChrome() {
  return <DialogHost />;
}
