import { isUuid } from "../lib/route-params";
import type { PageComponent } from "./types";

/**
 * Show, create and edit open as drawers over their list: each is a route of its own rendering the
 * list page, which opens the drawer its route names (src/components/resource/drawer-route.tsx).
 * The definitions are here, apart from the drawer's hooks, because the route table loads with the
 * app's first page, before the portal's code.
 */
export type DrawerAction = "show" | "create" | "edit";

/** The routes of a list with drawers, for a ResourceDefinition; `actions` names the drawers it has. */
export function drawerRoutes(
  basePath: string,
  component: PageComponent,
  actions: readonly DrawerAction[] = ["show", "create", "edit"],
) {
  const has = (action: DrawerAction) => actions.includes(action);
  return {
    list: { path: basePath, component },
    ...(has("show") && { show: { path: `${basePath}/show/:id`, component, validate: validId } }),
    ...(has("create") && { create: { path: `${basePath}/create`, component } }),
    ...(has("edit") && { edit: { path: `${basePath}/edit/:id`, component, validate: validId } }),
  };
}

const validId = ({ id }: Record<string, string | undefined>) => isUuid(id);
