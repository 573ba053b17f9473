/**
 * A resource's icon in the portal's menu and breadcrumbs. The resource definitions are read on
 * every first load (routes, titles, preloads), the landing's included, but their icons show only
 * in the portal: the icons load in a chunk of their own (src/components/menu-icons.tsx), fetched
 * with the portal's frame (src/shell/layouts.tsx), and an icon's place is kept until it is in.
 */
import { createElement, lazy, type ReactNode, Suspense } from "react";
import type { MenuIconName } from "./menu-icons";

export const loadMenuIcons = () => import("./menu-icons");
const MenuIconView = lazy(() => loadMenuIcons().then((module) => ({ default: module.MenuIconView })));

/** antd's icon box (the `anticon` class sizes it), empty. */
const iconPlace = <span className="anticon" aria-hidden style={{ width: "1em", height: "1em" }} />;

function MenuIcon({ name }: { name: MenuIconName }) {
  return (
    <Suspense fallback={iconPlace}>
      <MenuIconView name={name} />
    </Suspense>
  );
}

/** The icon a resource definition names, for its `meta.icon`. */
export const menuIcon = (name: MenuIconName): ReactNode => createElement(MenuIcon, { name });
