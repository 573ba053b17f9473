/**
 * Show, create and edit open as drawers over their list (style.md): each is a
 * route of its own, so deep links work, and every one of those routes renders
 * the list page, which opens the drawer its route names. Moving between them
 * keeps the list's query string, so the list behind a drawer stays on the
 * same page, sort and filters.
 */
import { useParsed } from "@refinedev/core";
import { Drawer } from "antd";
import type { ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import type { DrawerAction } from "../../routing/drawer-routes";
import { useEscapeCloses } from "../escape-closes";

export interface DrawerRoute {
  /** The drawer the route opens, or null on the list itself. */
  action: DrawerAction | null;
  id: string | undefined;
  show(id: string): void;
  edit(id: string): void;
  create(): void;
  close(): void;
}

/** `basePath` is the list's path, e.g. "/admin/obd-functions". */
export function useDrawerRoute(basePath: string): DrawerRoute {
  const { action, id } = useParsed();
  const navigate = useNavigate();
  const { search } = useLocation();
  const go = (path: string) => navigate(`${path}${search}`);
  const drawer = action === "show" || action === "create" || action === "edit" ? action : null;
  return {
    action: drawer,
    id: id === undefined ? undefined : String(id),
    show: (target) => go(`${basePath}/show/${encodeURIComponent(target)}`),
    edit: (target) => go(`${basePath}/edit/${encodeURIComponent(target)}`),
    create: () => go(`${basePath}/create`),
    close: () => go(basePath),
  };
}

export function RouteDrawer({
  open,
  title,
  onClose,
  children,
  width = 640,
}: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  width?: number;
}) {
  useEscapeCloses(open, onClose);
  return (
    <Drawer open={open} title={title} onClose={onClose} width={width} destroyOnHidden>
      {open && children}
    </Drawer>
  );
}
