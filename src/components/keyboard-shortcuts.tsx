/**
 * "?" opens a list of the portal's keyboard shortcuts in a dialog (through the dialog host, so
 * Escape, the close button and a click outside all close it). Typing "?" into a field types it:
 * the shortcut is ignored while focus is in something editable. Mount once in the app.
 */
import { lazy, Suspense, useEffect } from "react";
import { dialogStore, useDialogs } from "./dialogs";

// Every page mounts the shortcuts; the list's code (antd's Descriptions) loads the first time "?" is pressed.
const ShortcutList = lazy(() => import("./shortcut-list").then((module) => ({ default: module.ShortcutList })));

function editable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

export function KeyboardShortcuts() {
  const dialogs = useDialogs();
  useEffect(() => {
    let open: string | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key !== "?" ||
        event.defaultPrevented ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        editable(event.target)
      )
        return;
      // Once: a second "?" while the list is shown does not stack another copy.
      if (open !== null && dialogStore.getSnapshot().some((entry) => entry.key === open && entry.visible)) return;
      event.preventDefault();
      open = dialogs.open(
        <Suspense fallback={null}>
          <ShortcutList />
        </Suspense>,
        { header: "Keyboard shortcuts", icon: { name: "info" } },
      );
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [dialogs]);
  return null;
}
