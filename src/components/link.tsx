/**
 * A router link that fetches its route's code ahead of the click, at most 4 routes at once: when
 * it scrolls into view, and first in the queue when hovered or focused.
 *
 * Used for every in-app link: the layouts import it instead of react-router's Link, and App.tsx
 * hands it to Refine as the router provider's Link, so the menu, breadcrumbs and record buttons
 * preload too. Links to other sites and unknown paths preload nothing.
 */
import { type FocusEvent, type MouseEvent, type Ref, useCallback, useEffect, useRef } from "react";
import { type LinkProps, Link as RouterLink, resolvePath } from "react-router";
import { preloadRoute } from "../routing/registry";

/** One observer for all links: a page can show hundreds (a table of records). */
let observer: IntersectionObserver | undefined;
const targets = new WeakMap<Element, string>();

function observe(element: Element, pathname: string): () => void {
  if (typeof IntersectionObserver === "undefined") return () => undefined;
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const path = targets.get(entry.target);
      if (!entry.isIntersecting || path === undefined) continue;
      preloadRoute(path, "normal");
      // Once asked for, the route is loaded or queued: no need to watch the link any more.
      observer?.unobserve(entry.target);
    }
  });
  targets.set(element, pathname);
  observer.observe(element);
  return () => observer?.unobserve(element);
}

export function Link({ to, onMouseEnter, onFocus, ref, ...props }: LinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const pathname = typeof to === "string" && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(to) ? null : resolvePath(to).pathname;
  const element = useRef<HTMLAnchorElement | null>(null);

  useEffect(() => {
    if (pathname === null || !element.current) return;
    return observe(element.current, pathname);
  }, [pathname]);

  const setRef = useCallback(
    (node: HTMLAnchorElement | null) => {
      element.current = node;
      if (typeof ref === "function") ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );

  const preloadNow = () => {
    if (pathname !== null) preloadRoute(pathname, "high");
  };
  return (
    <RouterLink
      {...props}
      to={to}
      ref={setRef}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        preloadNow();
        onMouseEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        preloadNow();
        onFocus?.(event);
      }}
    />
  );
}
