import type { ComponentType, ReactNode } from "react";
import type { Guard } from "../providers/access-control";

export type LayoutName = "landing" | "portal" | "docs" | "none";
export type MenuGroup = "portal" | "dealer" | "admin";

/** A route's page; a lazy one (src/routing/lazy-page.ts) can fetch its code ahead of a visit. */
export type PageComponent = ComponentType & { preload?: () => Promise<unknown> };

export interface RoutePage {
  path: string;
  component: PageComponent;
  /** Overrides the resource's layout for this one route (e.g. a full-screen list). */
  layout?: LayoutName;
  /** False for params that cannot name anything (a malformed id): the route shows 404 "Page Not Found". */
  validate?: (params: Readonly<Partial<Record<string, string>>>) => boolean;
}

/** One resource or page, declared once: it produces Refine's resource, its routes and its menu entry. */
export interface ResourceDefinition {
  /** The resource's name: its API collection's (contracts/api-paths.ts), which its data hooks use. */
  name: string;
  /**
   * One of several views of the same resource on routes of their own (the dealer's managed
   * vehicles beside the owner's): its own guard, label and menu entry under the identifier
   * `<name>/<view>`, while its data hooks still name the resource, so they share one cache and an
   * edit on one view refreshes every other. The resource's first definition has no view.
   */
  view?: string;
  guard: Guard;
  layout: LayoutName;
  list?: RoutePage;
  show?: RoutePage;
  create?: RoutePage;
  edit?: RoutePage;
  meta: {
    label: string;
    icon?: ReactNode;
    /** Menu section; pages without one are reached by links only. */
    menu?: MenuGroup;
    /**
     * For a page reached from another resource's tabs rather than the menu: that resource's name.
     * Its menu entry stays highlighted while this page is open, and the breadcrumb starts from its section.
     */
    menuEntry?: string;
    /** API path under /api/v1 when it differs from the name. */
    apiPath?: string;
    /** Re-mount instead of keeping the page alive when switching away. */
    keepAlive?: false;
    /**
     * A page of the public site: it opens without the portal's code (Refine and its query cache),
     * so it reads and writes through the services directly (src/public-site.tsx).
     */
    publicSite?: true;
    /** A page may force a colour mode (never "system"). */
    colourMode?: "light" | "dark" | "system";
  };
}
