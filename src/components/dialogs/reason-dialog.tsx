/**
 * A decision that someone is told about (a dealer's status, a licence removed): the dialog asks
 * for the reason, refuses an empty one at once, and shows the server's refusal as an error below it.
 */
import { Alert, Flex, Input, Modal, Typography } from "antd";
import { type ReactNode, useState } from "react";

export interface ReasonDialogProps {
  title: string;
  okText: string;
  danger?: boolean;
  /** What happens, in a sentence above the field. */
  explanation: ReactNode;
  sending: boolean;
  /** The server's refusal, shown under the field. */
  error: string | null;
  /** Fields the decision needs besides the reason, shown above it. */
  children?: ReactNode;
  /** Shown when the reason is missing, in the server's words for the same refusal. */
  required: string;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

export function ReasonDialog({
  title,
  okText,
  danger = true,
  explanation,
  sending,
  error,
  required,
  onSubmit,
  onClose,
  children,
}: ReasonDialogProps) {
  const [reason, setReason] = useState("");
  const [local, setLocal] = useState<string | null>(null);
  const shown = local ?? error;
  const submit = () => {
    if (reason.trim().length < 3) return setLocal(required);
    setLocal(null);
    onSubmit(reason.trim());
  };
  return (
    <Modal
      open
      title={title}
      okText={okText}
      okButtonProps={{ danger, loading: sending }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={8}>
        <Typography.Text>{explanation}</Typography.Text>
        {children}
        <Typography.Text strong>Reason</Typography.Text>
        <Input.TextArea
          aria-label="Reason"
          rows={3}
          maxLength={1000}
          value={reason}
          status={shown ? "error" : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        {shown && <Alert type="error" showIcon role="alert" message={shown} />}
      </Flex>
    </Modal>
  );
}
