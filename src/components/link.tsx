/**
 * A router link that loads its route's code when the user shows the intent to follow it: hovered,
 * focused or touched. A link merely in view loads nothing, so a page fetches only the code it
 * shows, not that of every page its menu and tables lead to.
 *
 * Used for every in-app link: the layouts import it instead of react-router's Link, and App.tsx
 * hands it to Refine as the router provider's Link, so the menu, breadcrumbs and record buttons
 * preload too. Links to other sites and unknown paths preload nothing.
 */
import type { FocusEvent, MouseEvent, Ref, TouchEvent } from "react";
import { type LinkProps, Link as RouterLink, resolvePath } from "react-router";
import { preloadRoute } from "../routing/registry";

export function Link({
  to,
  onMouseEnter,
  onFocus,
  onTouchStart,
  ref,
  ...props
}: LinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const pathname = typeof to === "string" && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(to) ? null : resolvePath(to).pathname;
  const preloadNow = () => {
    if (pathname !== null) preloadRoute(pathname);
  };
  return (
    <RouterLink
      {...props}
      to={to}
      ref={ref}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        preloadNow();
        onMouseEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        preloadNow();
        onFocus?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        preloadNow();
        onTouchStart?.(event);
      }}
    />
  );
}
