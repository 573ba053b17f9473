import { lazy, type ReactNode, Suspense } from "react";
import { ColourModeSwitch } from "../components/colour-mode-switch";
import { DocsLayout } from "../components/layouts/docs-layout";
import { LandingLayout } from "../components/layouts/landing-layout";
import { loadMenuIcons } from "../components/menu-icon";
import type { LayoutName } from "../routing/types";

// The portal's frame (Refine's themed layout, which brings its markdown renderer) loads when the portal opens, not on
// the landing page; its menu's icons with it.
const loadPortalLayout = () => {
  void loadMenuIcons();
  return import("../components/layouts/portal-layout");
};
const PortalLayout = lazy(() => loadPortalLayout().then((module) => ({ default: module.PortalLayout })));

/** Fetches the portal's frame and its menu's icons ahead of its first render (a page load on a portal page starts it at once). */
export const preloadPortalLayout = (): void => void loadPortalLayout();

const switchInHeader = <ColourModeSwitch />;

/** Each layout's frame around a page. */
export const layouts: Record<LayoutName, (children: ReactNode) => ReactNode> = {
  landing: (children) => <LandingLayout headerExtra={switchInHeader}>{children}</LandingLayout>,
  portal: (children) => (
    <Suspense fallback={null}>
      <PortalLayout headerExtra={switchInHeader}>{children}</PortalLayout>
    </Suspense>
  ),
  docs: (children) => <DocsLayout headerExtra={switchInHeader}>{children}</DocsLayout>,
  none: (children) => children,
};
