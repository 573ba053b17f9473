import { Alert, Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { Link } from "../../components/link";
import { failureText } from "../../lib/http-errors";
import { AuthCard } from "./auth-card";
import { useEmailLinks } from "./email-links";

export function ForgotPasswordPage() {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);

  const [sentTo, setSentTo] = useState("");
  const { askPasswordReset } = useEmailLinks();

  const send = async ({ email }: { email: string }) => {
    setState("sending");
    setError(null);
    try {
      // Our server answers the same whether or not the address has an account; the link's page then offers our sign-in page.
      await askPasswordReset(email);
    } catch (caught) {
      setError(failureText(caught));
      setState("idle");
      return;
    }
    setSentTo(email);
    setState("sent");
  };

  return (
    <AuthCard title="Reset your password">
      {state === "sent" ? (
        <Alert
          type="success"
          showIcon
          message="Check your inbox"
          description={
            <>
              If an account exists for that address, we have sent it a link to choose a new password.{" "}
              <Link to={`/mail-to-redirect?email=${encodeURIComponent(sentTo)}&purpose=reset`}>Open my mail</Link>
            </>
          }
          role="status"
        />
      ) : (
        <Form layout="vertical" onFinish={send}>
          <Typography.Paragraph type="secondary">
            Enter your email and we will send you a link to reset your password.
          </Typography.Paragraph>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
          <Form.Item
            name="email"
            label="Email"
            rules={[
              { required: true, message: "Enter your email" },
              { type: "email", message: "That email address is not valid" },
            ]}
          >
            <Input type="email" autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={state === "sending"}>
            Send reset link
          </Button>
        </Form>
      )}
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        <Link to="/login">Back to sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
