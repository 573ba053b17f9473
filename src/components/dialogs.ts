/**
 * The app's dialogs as data: the store every dialog is opened in and `useDialogs()` to open and
 * close them; src/components/dialog-host.tsx draws them. How they behave is described there.
 */
import type { ModalProps } from "antd";
import type { ComponentType, ReactNode } from "react";

import { type DialogOptions, DialogStore } from "../lib/dialog-store";

export const DIALOG_MAX_WIDTH_PX = 672;

/** The icons a dialog's header may show (src/components/dialog-frames.tsx draws them). */
export type DialogIconName = "info" | "success" | "warning" | "error" | "question";

export interface DialogUi {
  /** Narrower than the maximum if given; never wider than 672 px. */
  width?: number;
  classNames?: ModalProps["classNames"];
  styles?: ModalProps["styles"];
}

export interface DialogContentProps {
  dialogKey: string;
  /** Closes this dialog without asking its close hook, e.g. after its form was saved. */
  close: () => void;
}

/**
 * What the store holds: a ReactNode, or a component that receives `options.props` plus
 * DialogContentProps. The component's own props were checked where `open` was called, so the
 * store does not need to know them.
 */
export type DialogContent = ReactNode | ComponentType<any>;

export type HostDialogOptions = DialogOptions<ReactNode, DialogUi, DialogIconName>;

/** The app's dialog store; exported for tests and for code outside React. */
export const dialogStore = new DialogStore<DialogContent, HostDialogOptions>();

export interface Dialogs {
  /** Opens a dialog and returns its key ("0".."99"); throws when 100 are open. */
  open: <P extends object = object>(
    content: ReactNode | ComponentType<P & DialogContentProps>,
    options?: HostDialogOptions & { props?: P },
  ) => string;
  /** Closes a dialog unconditionally; throws "Overlay not found" for an unknown key. */
  close: (key: string) => void;
}

const dialogs: Dialogs = {
  open: (content, options = {}) => dialogStore.open(content, options),
  close: (key) => dialogStore.close(key),
};

export function useDialogs(): Dialogs {
  return dialogs;
}
