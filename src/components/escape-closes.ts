/**
 * Escape closes a drawer even when the focus is not inside it. antd's drawer hears Escape only on
 * its own panel, and a drawer that opens with the page (a link such as `?request=<id>`) loses the
 * focus to the page loading under it, so Escape did nothing there. Inside the panel antd handles
 * it and stops it (as antd's modals do), so this never closes twice; a dialog of the dialog host
 * above the drawer takes Escape first.
 */
import { useEffect } from "react";
import { dialogStore } from "./dialogs";

export function useEscapeCloses(open: boolean, onClose: () => void) {
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || dialogStore.topmost()) return;
      onClose();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [open, onClose]);
}
