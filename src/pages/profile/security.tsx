import { useCustomMutation, useLogout } from "@refinedev/core";
import { Alert, App, Button, Card, Flex, Form, Input, Typography } from "antd";
import { type User, updatePassword, verifyBeforeUpdateEmail } from "firebase/auth";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import { identityErrorCode, identityErrorMessage } from "../../lib/identity-errors";
import { NewPasswordField, usePasswordPolicy } from "../auth/password-field";
import { ReauthenticateModal } from "./reauthenticate";

type Feedback = { type: "success" | "error"; text: string } | null;

/**
 * Runs a sensitive action; when the identity service wants a recent sign-in, asks for the password
 * and runs it again.
 */
function useRecentLogin(user: User) {
  const [pending, setPending] = useState<{ reason: string; retry: () => Promise<void> } | null>(null);
  const run = async (action: () => Promise<void>, reason: string, onError: (error: unknown) => void) => {
    try {
      await action();
    } catch (error) {
      if (identityErrorCode(error) !== "requires-recent-login") return onError(error);
      setPending({ reason, retry: () => action().catch(onError) });
    }
  };
  const modal = (
    <ReauthenticateModal
      user={user}
      open={pending !== null}
      reason={pending?.reason ?? ""}
      onCancel={() => setPending(null)}
      onDone={() => {
        const retry = pending?.retry;
        setPending(null);
        void retry?.();
      }}
    />
  );
  return { run, modal, ask: (reason: string, action: () => Promise<void>) => setPending({ reason, retry: action }) };
}

export function EmailCard({ user }: { user: User }) {
  const [form] = Form.useForm<{ email: string }>();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const { run, modal } = useRecentLogin(user);

  const change = ({ email }: { email: string }) => {
    setBusy(true);
    setFeedback(null);
    void run(
      async () => {
        // The address changes only once the link sent to the new address is opened.
        await verifyBeforeUpdateEmail(user, email.trim(), { url: `${window.location.origin}/profile` });
        setFeedback({
          type: "success",
          text: `We sent a link to ${email.trim()}. Your email changes when you open it.`,
        });
        form.resetFields();
      },
      "Changing your email address needs a recent sign-in.",
      (error) => setFeedback({ type: "error", text: identityErrorMessage(error) }),
    ).finally(() => setBusy(false));
  };

  return (
    <Card title="Email address">
      {modal}
      <Typography.Paragraph>
        You sign in with <strong>{user.email}</strong>
        {user.emailVerified ? " (verified)." : " (not verified yet)."}
      </Typography.Paragraph>
      {feedback && (
        <Alert
          type={feedback.type}
          showIcon
          message={feedback.text}
          role={feedback.type === "error" ? "alert" : "status"}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form
        form={form}
        name="change-email"
        layout="vertical"
        onFinish={change}
        style={{ maxWidth: 480 }}
        requiredMark={false}
      >
        <Form.Item
          name="email"
          label="New email address"
          rules={[
            { required: true, message: "Enter the new address" },
            { type: "email", message: "That email address is not valid" },
          ]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button htmlType="submit" loading={busy}>
          Send verification link
        </Button>
      </Form>
    </Card>
  );
}

export function PasswordCard({ user }: { user: User }) {
  const [form] = Form.useForm<{ password: string }>();
  const { policy, refetch } = usePasswordPolicy();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const { run, modal } = useRecentLogin(user);

  const change = ({ password }: { password: string }) => {
    setBusy(true);
    setFeedback(null);
    void run(
      async () => {
        await updatePassword(user, password);
        setFeedback({ type: "success", text: "Password changed." });
        form.resetFields();
      },
      "Changing your password needs a recent sign-in.",
      async (error) => {
        setFeedback({ type: "error", text: identityErrorMessage(error) });
        if (identityErrorCode(error) === "password-does-not-meet-requirements") {
          await refetch();
          void form.validateFields(["password"]).catch(() => {});
        }
      },
    ).finally(() => setBusy(false));
  };

  return (
    <Card title="Password">
      {modal}
      {feedback && (
        <Alert
          type={feedback.type}
          showIcon
          message={feedback.text}
          role={feedback.type === "error" ? "alert" : "status"}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form
        form={form}
        name="change-password"
        layout="vertical"
        onFinish={change}
        style={{ maxWidth: 480 }}
        requiredMark={false}
      >
        <NewPasswordField policy={policy} label="New password" />
        <Button htmlType="submit" loading={busy}>
          Change password
        </Button>
      </Form>
    </Card>
  );
}

export function SessionsCard({ user }: { user: User }) {
  const { mutateAsync: call } = useCustomMutation();
  const { mutate: logout } = useLogout();
  const { modal: dialogs } = App.useApp();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"revoke" | "delete" | null>(null);
  const { ask, modal } = useRecentLogin(user);

  const signOutEverywhere = () =>
    dialogs.confirm({
      title: "Sign out of all devices?",
      content: "Every phone and computer signed in to your account, this one included, will have to sign in again.",
      okText: "Sign out everywhere",
      onOk: async () => {
        setBusy("revoke");
        setError(null);
        try {
          await call({
            url: apiRoutes.users.revokeSessions(user.uid),
            method: "post",
            values: {},
            successNotification: false,
            errorNotification: false,
          });
          logout();
        } catch (caught) {
          setError((caught as Error).message);
        } finally {
          setBusy(null);
        }
      },
    });

  const deleteAccount = () =>
    ask(
      "Deleting your account removes your vehicles, tunes, logs and dealer profile. Enter your password to confirm.",
      async () => {
        setBusy("delete");
        setError(null);
        try {
          await call({
            url: apiRoutes.users.record(user.uid),
            method: "delete",
            values: {},
            successNotification: false,
            errorNotification: false,
          });
          logout({ redirectPath: "/" });
        } catch (caught) {
          setError((caught as Error).message);
        } finally {
          setBusy(null);
        }
      },
    );

  return (
    <Card title="Sessions and account">
      {modal}
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Flex vertical gap={16} align="start">
        <div>
          <Typography.Paragraph style={{ marginBottom: 8 }}>
            Lost a phone, or signed in on a shared computer? End every session of your account.
          </Typography.Paragraph>
          <Button onClick={signOutEverywhere} loading={busy === "revoke"}>
            Sign out of all devices
          </Button>
        </div>
        <div>
          <Typography.Paragraph style={{ marginBottom: 8 }}>
            Delete your account and the data we keep about you. This cannot be undone.
          </Typography.Paragraph>
          <Button danger onClick={deleteAccount} loading={busy === "delete"}>
            Delete account
          </Button>
        </div>
      </Flex>
    </Card>
  );
}
