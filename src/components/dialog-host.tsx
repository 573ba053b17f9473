/**
 * Dialog host: renders the app's dialogs above the layout.
 *
 * Mount once, beside the layout and inside antd's <App>/<ConfigProvider> so dialogs get the
 * theme:
 *   <DialogHost />
 *
 * Open dialogs from anywhere below with the hook:
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
 */
import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  InfoCircleOutlined,
  QuestionCircleOutlined,
} from "@ant-design/icons";
import { Alert, Modal, type ModalProps } from "antd";
import {
  Component,
  useEffect,
  useRef,
  useSyncExternalStore,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from "react";

import { DialogStore, type DialogEntry, type DialogOptions } from "../lib/dialog-store";
import { labels } from "../lib/labels";

export const DIALOG_MAX_WIDTH_PX = 672;

/** The antd Modal z-index; each dialog above sits one higher so the newest is on top. */
const BASE_Z_INDEX = 1000;

/** Names a dialog's `icon.name` may take, and the antd icon each one shows. */
export const DIALOG_ICONS = {
  info: InfoCircleOutlined,
  success: CheckCircleOutlined,
  warning: ExclamationCircleOutlined,
  error: CloseCircleOutlined,
  question: QuestionCircleOutlined,
} as const;

export type DialogIconName = keyof typeof DIALOG_ICONS;

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
type DialogContent = ReactNode | ComponentType<any>;

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

function reportCloseFailure(error: unknown): void {
  console.error("A dialog's close hook failed; the dialog stays open.", error);
}

export function DialogHost() {
  const entries = useSyncExternalStore(dialogStore.subscribe, dialogStore.getSnapshot, dialogStore.getSnapshot);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A control inside the dialog (a select's dropdown, say) may use Escape for itself.
      if (event.key !== "Escape" || event.defaultPrevented || !dialogStore.topmost()) return;
      dialogStore.dismissTopmost("escape").catch(reportCloseFailure);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return entries.map((entry, index) => <HostedDialog key={entry.key} entry={entry} zIndex={BASE_Z_INDEX + index} />);
}

interface HostedDialogProps {
  entry: DialogEntry<DialogContent, HostDialogOptions>;
  zIndex: number;
}

function HostedDialog({ entry, zIndex }: HostedDialogProps) {
  const { key, options, visible } = entry;
  const ui = options.ui ?? {};
  // An outside click is a press and a release both on the backdrop; a drag that starts in the
  // content (selecting text, say) and ends outside must not close the dialog.
  const pressedOnBackdrop = useRef(false);

  const onBackdropMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    pressedOnBackdrop.current = event.target === event.currentTarget;
  };
  const onBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    const outside = pressedOnBackdrop.current && event.target === event.currentTarget;
    pressedOnBackdrop.current = false;
    // The store refuses the dismissal unless this is the topmost dialog and it allows it.
    if (outside) dialogStore.dismiss(key, "outside-click").catch(reportCloseFailure);
  };

  return (
    <Modal
      open={visible}
      title={options.hideHeader ? undefined : <DialogHeader header={options.header} icon={options.icon} />}
      footer={null}
      width={Math.min(ui.width ?? DIALOG_MAX_WIDTH_PX, DIALOG_MAX_WIDTH_PX)}
      zIndex={zIndex}
      keyboard={false}
      maskClosable={false}
      // data-dialog-key lets browser tests find one dialog's backdrop among several.
      wrapProps={{ onMouseDown: onBackdropMouseDown, onClick: onBackdropClick, "data-dialog-key": key }}
      onCancel={() => dialogStore.dismiss(key, "close-button").catch(reportCloseFailure)}
      afterClose={() => dialogStore.remove(key)}
      closable={{ "aria-label": labels.close }}
      classNames={ui.classNames}
      styles={ui.styles}
      destroyOnHidden
    >
      <DialogErrorBoundary>
        <DialogBody entry={entry} />
      </DialogErrorBoundary>
    </Modal>
  );
}

function DialogHeader({ header, icon }: { header: ReactNode; icon?: HostDialogOptions["icon"] }) {
  if (!icon) return header;
  const Icon = DIALOG_ICONS[icon.name];
  return (
    <span style={{ display: "inline-flex", alignItems: "center", gap: 8 }}>
      <Icon className={[icon.baseClass, icon.iconClass].filter(Boolean).join(" ") || undefined} aria-hidden />
      {header}
    </span>
  );
}

function DialogBody({ entry }: { entry: DialogEntry<DialogContent, HostDialogOptions> }) {
  const { content, key, options } = entry;
  if (typeof content !== "function") return content;
  const Content = content;
  return <Content {...options.props} dialogKey={key} close={() => dialogStore.close(key)} />;
}

interface BoundaryState {
  error: unknown;
  failed: boolean;
}

class DialogErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error, failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    const { error } = this.state;
    const message = error instanceof Error ? error.message : String(error);
    return <Alert type="error" showIcon role="alert" message={labels.dialogError(message)} />;
  }
}
