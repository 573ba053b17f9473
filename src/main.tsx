// The React 19 compatibility patch for antd 5 must load before antd renders anything.
import "@ant-design/v5-patch-for-react-19";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App, preloadPortalPage } from "./App";
import { installErrorListeners } from "./components/app-error-boundary";
import { inNextTask } from "./lib/idle";
import { warmUpLocaleData } from "./lib/locale-warm-up";
import { ReleaseCheck } from "./lib/release-check";
import { releaseSnapshot } from "./lib/snapshot";
import { createServices } from "./providers/services";
import { hasSavedIdentityUser } from "./providers/session";
import { isPublicSitePath, menuParents, registerResources, registry } from "./resources";
import { evaluateRouteChunks } from "./routing/route-chunks-evaluate";
import { whenRouteChunksLinked } from "./routing/route-chunks-linked";

// The routes are known before anything reads them: the public site, the portal and every link.
registerResources(registry, menuParents);
installErrorListeners(window);
// Polls build-manifest.json from the start; App makes the next page change a full load after a release.
const releaseCheck = new ReleaseCheck({ currentBuildId: __BUILD_ID__ });
releaseCheck.start();

// Someone signed in before needs the identity SDK for their first call: fetch its code now, beside
// the runtime configuration, instead of after it (src/providers/services.ts starts it).
if (hasSavedIdentityUser()) void import("./providers/firebase");
// The page's chunks are linked by the HTML's start script as the entry starts: ask for them after,
// on a portal page once they have run one per task, the locale's data loaded in tasks before them
// (uPlot's module makes a number formatter as it is evaluated).
whenRouteChunksLinked(() => {
  const { pathname } = window.location;
  if (isPublicSitePath(pathname)) return;
  void warmUpLocaleData(inNextTask)
    .then(() => evaluateRouteChunks(pathname))
    .then(() => preloadPortalPage(pathname));
});

const root = createRoot(document.getElementById("root")!);

createServices().then(
  (services) =>
    // As a transition, the first render yields to the browser every few milliseconds instead of
    // holding the main thread for the whole tree (on a phone, over a second of blocked input).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App services={services} releaseCheck={releaseCheck} />
        </StrictMode>,
      ),
    ),
  (error: unknown) => {
    // Without configuration nothing else can work: say so plainly instead of a blank page.
    const message = error instanceof Error ? error.message : String(error);
    releaseSnapshot(document);
    root.render(
      <div role="alert" style={{ fontFamily: "system-ui", padding: 32 }}>
        <h1>The portal could not start</h1>
        <p>{message}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Retry
        </button>
      </div>,
    );
  },
);
