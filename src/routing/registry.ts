import type { ResourceProps } from "@refinedev/core";
import { matchPath } from "react-router";
import type { LayoutName, MenuGroup, ResourceDefinition, RoutePage } from "./types";

/**
 * The registry kernel: what the app's resource definitions become (Refine resources, routes,
 * guards, keep-alive keys, preloads). The definitions themselves are listed once, in
 * src/resources/index.tsx; the app's entry (src/main.tsx) hands them here with `registerResources`
 * before it renders, and components and providers (links preloading their page, the access-control
 * provider) read them through this module, so nothing below the pages has to import the pages.
 */
let registered: readonly ResourceDefinition[] = [];
let menuParents: Readonly<Record<ParentGroup, ResourceProps>> | undefined;

/** The menu groups that are entries of their own, above the pages they hold. */
export type ParentGroup = Exclude<MenuGroup, "portal">;

/** Makes `definitions` the app's routes and `parents` the menu's groups; called once, before the app renders. */
export function registerResources(
  definitions: readonly ResourceDefinition[],
  parents: Readonly<Record<ParentGroup, ResourceProps>>,
): void {
  registered = definitions;
  menuParents = parents;
}

/** The registered definitions, in menu order. */
export function registeredResources(): ResourceDefinition[] {
  return [...registered];
}

function parents(): Readonly<Record<ParentGroup, ResourceProps>> {
  if (!menuParents) throw new Error("registerResources() has not been called: the app's entry registers them first");
  return menuParents;
}

/** Refine's resources: menu entries for pages with a menu group, hidden entries for the rest (breadcrumbs, titles). */
export function refineResources(definitions: ResourceDefinition[] = registeredResources()): ResourceProps[] {
  const resources: ResourceProps[] = Object.values(parents());
  for (const definition of definitions) {
    const { menu, label, icon, apiPath } = definition.meta;
    resources.push({
      name: definition.name,
      list: definition.list?.path,
      show: definition.show?.path,
      create: definition.create?.path,
      edit: definition.edit?.path,
      meta: {
        label,
        icon,
        apiPath,
        guard: definition.guard,
        hide: !menu,
        ...(menu && menu !== "portal" && { parent: menu }),
        ...menuEntryOf(definition, definitions),
      },
      // Refine's menu key is the resource's parents and identifier joined: a tab page takes its entry's, so
      // the entry is selected. Every resource names its identifier, and Refine picks the first one with a
      // given identifier: the entry, registered before its tab pages, stays the one "firmware-support" names.
      identifier: definition.meta.menuEntry ?? identifierOf(definition),
    });
  }
  return resources;
}

/** Refine's identifier of a definition: its name, or `<name>/<view>` for a further view of the resource. */
export function identifierOf(definition: ResourceDefinition): string {
  return definition.view ? `${definition.name}/${definition.view}` : definition.name;
}

/** The section of the menu entry a tab page belongs to, as its parent (its breadcrumb's first step). */
function menuEntryOf(definition: ResourceDefinition, definitions: ResourceDefinition[]): { parent?: string } {
  const name = definition.meta.menuEntry;
  if (!name) return {};
  const entry = definitions.find((candidate) => candidate.name === name);
  if (!entry?.meta.menu) throw new Error(`${definition.name}: meta.menuEntry "${name}" names no resource in the menu`);
  if (definitions.indexOf(entry) > definitions.indexOf(definition))
    throw new Error(`${definition.name}: register it after "${name}", its menu entry`);
  return entry.meta.menu === "portal" ? {} : { parent: entry.meta.menu };
}

/**
 * The guard a resource needs, for the access-control provider: by Refine identifier (a view's
 * `<name>/<view>` has the view's guard), else by name (the resource's first definition).
 */
export function guardOf(name: string, definitions: ResourceDefinition[] = registeredResources()): string | undefined {
  if (name === "admin" || name === "dealer") return name;
  return (
    definitions.find((definition) => identifierOf(definition) === name) ??
    definitions.find((definition) => definition.name === name)
  )?.guard;
}

export interface FlatRoute {
  path: string;
  layout: LayoutName;
  guard: string;
  resource: string;
  page: RoutePage;
  keepAlive: boolean;
  /** The page's title (the browser tab shows "<label> · Tuning Portal"). */
  label: string;
  publicSite: boolean;
  colourMode?: ResourceDefinition["meta"]["colourMode"];
}

export function flattenRoutes(definitions: ResourceDefinition[] = registeredResources()): FlatRoute[] {
  return definitions.flatMap((definition) =>
    (["list", "show", "create", "edit"] as const)
      .map((action) => definition[action])
      .filter((page): page is RoutePage => Boolean(page))
      .map((page) => ({
        path: page.path,
        layout: page.layout ?? definition.layout,
        guard: definition.guard,
        resource: definition.name,
        page,
        keepAlive: definition.meta.keepAlive !== false,
        label: definition.meta.label,
        publicSite: definition.meta.publicSite === true,
        colourMode: definition.meta.colourMode,
      })),
  );
}

/** The route a pathname opens, if any. */
export function routeFor(pathname: string, routes: FlatRoute[] = flattenRoutes()): FlatRoute | undefined {
  return routes.find((route) => matchPath(route.path, pathname));
}

/** Whether a pathname opens a page of the public site, which the app shows without the portal's code. */
export function isPublicSitePath(pathname: string, routes: FlatRoute[] = flattenRoutes()): boolean {
  return routeFor(pathname, routes)?.publicSite ?? false;
}

/**
 * The page a pathname shows, for keep-alive: the routes of one resource that render the same
 * component (a list and the drawers opened over it on routes of their own) are one page, kept
 * under the list's path, so opening a drawer does not keep a second copy of the list.
 */
export function keepAliveKey(pathname: string, routes: FlatRoute[] = flattenRoutes()): string {
  const route = routeFor(pathname, routes);
  if (!route) return pathname;
  const first = routes.find(
    (candidate) => candidate.resource === route.resource && candidate.page.component === route.page.component,
  );
  return first && !first.path.includes(":") ? first.path : pathname;
}

/** Whether the page at a pathname stays alive when switching away (unknown paths are not kept). */
export function keepAliveFor(pathname: string): boolean {
  return routeFor(pathname)?.keepAlive ?? false;
}

/**
 * Gets the page at a pathname ready: loads and runs its code (a hovered, focused or touched link, the
 * page being opened). A page's code loads once (lazyPage); a failed load is retried on the next ask,
 * and the navigation itself reports a real failure.
 */
export function preloadRoute(pathname: string): void {
  void routeFor(pathname)
    ?.page.component.preload?.()
    .catch(() => undefined);
}

/**
 * The layout an unknown path is shown in: the layout of the known routes under its first path
 * segment ("/admin/nothing" → portal, "/docs/…" → docs), landing for the rest. Full-screen
 * routes ("none") give no chrome to show a 404 in, so they do not decide.
 */
export function notFoundLayout(pathname: string, routes: FlatRoute[] = flattenRoutes()): LayoutName {
  const segment = (path: string) => path.split("/")[1] ?? "";
  const first = segment(pathname);
  const match = routes.find((route) => route.layout !== "none" && route.path !== "/" && segment(route.path) === first);
  return match?.layout ?? "landing";
}
