import { Alert, Button, Divider, Form, Input, Typography } from "antd";
import { createUserWithEmailAndPassword, updateProfile } from "firebase/auth";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { failureText } from "../../lib/http-errors";
import { identityErrorCode, identityErrorMessage } from "../../lib/identity-errors";
import { safeRedirect } from "../../providers/auth-provider";
import { firebaseAuth } from "../../providers/firebase";
import { AuthCard } from "./auth-card";
import { ContinueWithGoogle } from "./continue-with-google";
import { useEmailLinks } from "./email-links";
import { NewPasswordField, usePasswordPolicy } from "./password-field";

interface SignUp {
  displayName: string;
  email: string;
  password: string;
}

/** Where the verification link brings the user back to: the "check your inbox" page, then the page they were headed for, if any. */
export function verificationContinuePath(to: string | null): string {
  return `/confirm-account${to ? `?to=${encodeURIComponent(safeRedirect(to))}` : ""}`;
}

export function CreateAccountPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const to = params.get("to");
  const [form] = Form.useForm<SignUp>();
  const { policy, refetch } = usePasswordPolicy();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { sendVerification } = useEmailLinks();

  const create = async ({ displayName, email, password }: SignUp) => {
    setBusy(true);
    setError(null);
    try {
      const { user } = await createUserWithEmailAndPassword(firebaseAuth(), email, password);
      await updateProfile(user, { displayName: displayName.trim() });
      // The account exists now: if the email cannot be sent, the next page offers to send it again.
      await sendVerification(user.uid, verificationContinuePath(to)).catch(() => undefined);
      navigate(verificationContinuePath(to));
    } catch (caught) {
      setError(identityErrorCode(caught) ? identityErrorMessage(caught) : failureText(caught));
      if (identityErrorCode(caught) === "password-does-not-meet-requirements") {
        // The service's policy changed since the page loaded: show the current rules against what was typed.
        await refetch();
        void form.validateFields(["password"]).catch(() => {});
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Create your account">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form form={form} layout="vertical" onFinish={create} requiredMark={false}>
        <Form.Item
          name="displayName"
          label="Name"
          rules={[
            { required: true, whitespace: true, message: "Enter your name" },
            { max: 80, message: "Use at most 80 characters" },
          ]}
        >
          <Input autoComplete="name" />
        </Form.Item>
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
        <NewPasswordField policy={policy} />
        <Typography.Paragraph type="secondary">
          By creating an account you accept the <Link to="/legal/terms">terms of use</Link> and our{" "}
          <Link to="/legal/privacy">privacy notice</Link>.
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Create account
        </Button>
      </Form>
      <Divider plain>or</Divider>
      <ContinueWithGoogle to={safeRedirect(to)} />
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        Already have an account?{" "}
        <Link to={to ? `/login?to=${encodeURIComponent(safeRedirect(to))}` : "/login"}>Sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
