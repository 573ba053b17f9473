import { Alert, Button, Form, Input, Result } from "antd";
import { isSignInWithEmailLink, signInWithEmailLink } from "firebase/auth";
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { firebaseAuth } from "../../lib/firebase";
import { identityErrorMessage } from "../../lib/identity-errors";
import { AuthCard } from "./auth-card";

/** Where the sign-in page remembers the address a link was sent to, for opening it on the same device. */
export const EMAIL_FOR_SIGN_IN_KEY = "emailForSignIn";

export function CreateEmailAccountPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [needEmail, setNeedEmail] = useState(false);
  const link = window.location.href;
  const valid = isSignInWithEmailLink(firebaseAuth(), link);

  const complete = useCallback(
    async (email: string) => {
      try {
        await signInWithEmailLink(firebaseAuth(), email, link);
        window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
        navigate("/dashboard", { replace: true });
      } catch (caught) {
        setError(identityErrorMessage(caught));
      }
    },
    [link, navigate],
  );

  useEffect(() => {
    if (!valid) return;
    const remembered = window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
    if (remembered) void complete(remembered);
    else setNeedEmail(true);
  }, [valid, complete]);

  if (!valid) {
    return (
      <AuthCard title="Sign in with a link">
        <Result status="error" title="This sign-in link is not valid" subTitle="Ask for a new link from the sign-in page." />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Finish signing in">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {needEmail && (
        <Form layout="vertical" onFinish={({ email }: { email: string }) => complete(email)}>
          <p>You opened this link on another device. Confirm the email address the link was sent to.</p>
          <Form.Item name="email" label="Email" rules={[{ required: true, type: "email", message: "Enter the email address the link was sent to" }]}>
            <Input type="email" autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>
            Sign in
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
