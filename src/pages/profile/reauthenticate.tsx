import { Alert, Form, Input, Modal } from "antd";
import { EmailAuthProvider, reauthenticateWithCredential, type User } from "firebase/auth";
import { useState } from "react";
import { identityErrorMessage } from "../../lib/identity-errors";

/**
 * Asks for the password again before a sensitive change (the identity service answers
 * `requires-recent-login` when the last sign-in is too old, and deleting an account always asks).
 */
export function ReauthenticateModal({
  user,
  open,
  reason,
  onDone,
  onCancel,
}: {
  user: User;
  open: boolean;
  reason: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<{ password: string }>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasPassword = user.providerData.some((provider) => provider.providerId === "password");

  const confirm = async () => {
    const { password } = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email ?? "", password));
      form.resetFields();
      onDone();
    } catch (caught) {
      setError(identityErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Confirm it is you"
      okText="Confirm"
      onOk={hasPassword ? confirm : onCancel}
      okButtonProps={{ loading: busy }}
      onCancel={() => {
        form.resetFields();
        setError(null);
        onCancel();
      }}
    >
      <p>{reason}</p>
      {hasPassword ? (
        <Form form={form} name="reauthenticate" layout="vertical" onFinish={confirm}>
          {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
          <Form.Item
            name="password"
            label="Current password"
            rules={[{ required: true, message: "Enter your password" }]}
          >
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
        </Form>
      ) : (
        <Alert
          type="info"
          showIcon
          message="You sign in with email links: sign out, sign in again with a new link, then try once more."
        />
      )}
    </Modal>
  );
}
