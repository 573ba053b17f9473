/**
 * Refine's NotificationProvider on top of the toast queue: notifications appear as toasts at the
 * top right.
 *
 * Mount: <Refine notificationProvider={notificationProvider} …> and render <Toaster /> from
 * src/components/toaster.tsx once in the app; both use the same queue.
 *
 * Mapping of Refine's `open({ key, type, message, description, undoableTimeout, cancelMutation })`:
 * - the key is the toast id, so opening the same key again updates that toast in place;
 * - 'success' and 'error' become toasts of that colour with `message` as title and
 *   `description` below it, closing after the default 5000 ms;
 * - 'progress' is Refine's undoable mutation: Refine reopens it every second with the seconds
 *   left in `message` and `undoableTimeout`, then replaces it with the success toast under the
 *   same key. It stays until replaced or undone, shows no close button (closing would not cancel
 *   the mutation) and offers an "Undo" action that calls `cancelMutation` and closes it.
 * Errors are announced at once (foreground); success and countdown updates politely
 * (background), so a screen reader is not interrupted every second.
 */
import type { NotificationProvider, OpenNotificationParams } from "@refinedev/core";
import type { ReactNode } from "react";
import { labels } from "../lib/labels";
import type { ToastInput, ToastQueue } from "../lib/toast-queue";
import { toasts } from "./toasts";

function toToast(params: OpenNotificationParams, closeSelf: () => void): ToastInput<ReactNode> {
  const { key, type, message, description, cancelMutation } = params;
  if (type === "progress") {
    return {
      id: key,
      title: message,
      description,
      color: "primary",
      type: "background",
      duration: Infinity,
      close: false,
      actions: cancelMutation
        ? [
            {
              label: labels.undo,
              altText: labels.undoAltText,
              onClick: () => {
                cancelMutation();
                closeSelf();
              },
            },
          ]
        : [],
    };
  }
  return {
    id: key,
    title: message,
    description,
    color: type === "error" ? "error" : "success",
    type: type === "error" ? "foreground" : "background",
  };
}

export function createNotificationProvider(queue: ToastQueue<ReactNode>): NotificationProvider {
  return {
    open: (params) => {
      const id: string = queue.add(toToast(params, () => queue.close(id)));
    },
    close: (key) => queue.close(key),
  };
}

export const notificationProvider = createNotificationProvider(toasts);
