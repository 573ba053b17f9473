import type { ReactNode } from "react";
import { ToastQueue } from "../lib/toast-queue";

/** The app's toast queue, shared by the Toaster (src/components/toaster.tsx) and the notification provider. */
export const toasts = new ToastQueue<ReactNode>();
