/**
 * The dialogs' frames: each open dialog of the store (src/components/dialogs.ts, drawn by src/components/dialog-host.tsx) as an antd
 * Modal. Loaded when the first dialog opens, so pages that never open one do not carry Modal.
 */
import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  InfoCircleOutlined,
  QuestionCircleOutlined,
} from "@ant-design/icons";
import { Alert, Modal } from "antd";
import { Component, type MouseEvent, type ReactNode, useRef } from "react";

import type { DialogEntry } from "../lib/dialog-store";
import { labels } from "../lib/labels";
import {
  DIALOG_MAX_WIDTH_PX,
  type DialogContent,
  type DialogIconName,
  dialogStore,
  type HostDialogOptions,
} from "./dialogs";

/** The antd Modal z-index; each dialog above sits one higher so the newest is on top. */
const BASE_Z_INDEX = 1000;

/** Names a dialog's `icon.name` may take, and the antd icon each one shows. */
export const DIALOG_ICONS = {
  info: InfoCircleOutlined,
  success: CheckCircleOutlined,
  warning: ExclamationCircleOutlined,
  error: CloseCircleOutlined,
  question: QuestionCircleOutlined,
} satisfies Record<DialogIconName, unknown>;

/** Every dialog of the store, the newest on top. */
export function DialogFrames({
  entries,
  onCloseFailure,
}: {
  entries: readonly DialogEntry<DialogContent, HostDialogOptions>[];
  onCloseFailure: (error: unknown) => void;
}) {
  return entries.map((entry, index) => (
    <HostedDialog key={entry.key} entry={entry} zIndex={BASE_Z_INDEX + index} onCloseFailure={onCloseFailure} />
  ));
}

interface HostedDialogProps {
  entry: DialogEntry<DialogContent, HostDialogOptions>;
  zIndex: number;
  onCloseFailure: (error: unknown) => void;
}

function HostedDialog({ entry, zIndex, onCloseFailure }: HostedDialogProps) {
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
    if (outside) dialogStore.dismiss(key, "outside-click").catch(onCloseFailure);
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
      onCancel={() => dialogStore.dismiss(key, "close-button").catch(onCloseFailure)}
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
