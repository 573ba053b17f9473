/**
 * Dialog host: renders the app's dialogs above the layout.
 *
 * Mount once, beside the layout and inside antd's <ConfigProvider> so dialogs get the
 * theme:
 *   <DialogHost />
 *
 * Open dialogs from anywhere below with the hook (src/components/dialogs.ts):
 *   const dialogs = useDialogs();
 *   const key = dialogs.open(<p>Delete this tune?</p>, { header: "Delete tune", icon: { name: "warning" } });
 *   dialogs.close(key);
 * or with a component as content, which receives `options.props` plus `dialogKey` and `close`:
 *   dialogs.open(EditDevice, { header: "Edit device", props: { id }, barrierDismissible: false,
 *     closeDialogFunction: async () => !form.isDirty || (await confirmDiscard()) });
 *
 * Behaviour: Escape and the close button dismiss the topmost dialog; a click outside dismisses
 * only the topmost and never one with `barrierDismissible: false`; when the dialog has a
 * `closeDialogFunction` it decides. Dialogs are at most 672 px wide (Tailwind's max-w-2xl). An error thrown while rendering the content is caught and shown inside
 * the dialog as "An error occurred: {message}"; the rest of the app keeps running.
 *
 * Key rules and limits ("0".."99", "Maximum number of dialogs reached", "Overlay not found")
 * live in src/lib/dialog-store.ts.
 *
 * The host is on every page's first load and most pages never open a dialog, so the frames
 * (antd's Modal, src/components/dialog-frames.tsx) load when the first dialog opens;
 * `loadDialogFrames()` fetches them ahead (the portal does when it is idle, tests before rendering).
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { toasts } from "../providers/toasts";
import { dialogStore } from "./dialogs";

function reportCloseFailure(error: unknown): void {
  console.error("A dialog's close hook failed; the dialog stays open.", error);
}

type Frames = typeof import("./dialog-frames");
let frames: Frames | undefined;
let framesLoading: Promise<Frames> | undefined;

/** Fetches the dialogs' code once; a failed fetch is tried again at the next call. */
export function loadDialogFrames(): Promise<Frames> {
  framesLoading ??= import("./dialog-frames").then(
    (module) => (frames = module),
    (error: unknown) => {
      framesLoading = undefined;
      throw error;
    },
  );
  return framesLoading;
}

export function DialogHost() {
  const entries = useSyncExternalStore(dialogStore.subscribe, dialogStore.getSnapshot, dialogStore.getSnapshot);
  const [, setFramesLoaded] = useState(frames !== undefined);
  const waiting = frames === undefined && entries.some((entry) => entry.visible);

  useEffect(() => {
    if (!waiting) return;
    loadDialogFrames().then(
      () => setFramesLoaded(true),
      () => {
        // Offline, or a release replaced the code: the dialogs asked for cannot show, so they are
        // closed (nothing waits on them unseen) and the person is told why.
        for (const entry of dialogStore.getSnapshot()) {
          if (entry.visible) dialogStore.close(entry.key);
          dialogStore.remove(entry.key);
        }
        toasts.add({
          title: "The dialog could not be opened",
          description: "Check your connection and try again.",
          color: "error",
        });
      },
    );
  }, [waiting]);

  useEffect(() => {
    // Until the frames are here nothing is on screen, so a dialog closed in the meantime has no exit
    // animation to wait for: its key is freed at once (the frames free it after the animation).
    if (frames) return;
    for (const entry of entries) if (!entry.visible) dialogStore.remove(entry.key);
  }, [entries]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A control inside the dialog (a select's dropdown, say) may use Escape for itself.
      if (event.key !== "Escape" || event.defaultPrevented || !dialogStore.topmost()) return;
      dialogStore.dismissTopmost("escape").catch(reportCloseFailure);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  if (!frames) return null;
  return <frames.DialogFrames entries={entries} onCloseFailure={reportCloseFailure} />;
}
