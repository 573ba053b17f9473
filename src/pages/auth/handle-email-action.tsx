import { Alert, Button, Form, Input, Result, Spin } from "antd";
import { applyActionCode, checkActionCode, confirmPasswordReset, verifyPasswordResetCode } from "firebase/auth";
import { useEffect, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { type EmailActionMode, parseEmailActionParams } from "../../lib/email-action";
import { firebaseAuth } from "../../lib/firebase";
import { identityErrorMessage } from "../../lib/identity-errors";
import { AuthCard } from "./auth-card";

const done: Record<Exclude<EmailActionMode, "resetPassword" | "signIn">, string> = {
  verifyEmail: "Your email address is verified.",
  verifyAndChangeEmail: "Your new email address is verified and now used for your account.",
  recoverEmail: "Your previous email address is restored. Reset your password if you think someone else changed it.",
  revertSecondFactorAddition: "The second factor that was just added has been removed from your account.",
};

type Outcome = { state: "working" } | { state: "done"; message: string } | { state: "failed"; message: string } | { state: "reset"; email: string };

function ResetPasswordForm({ oobCode, email }: { oobCode: string; email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (saved) {
    return <Result status="success" title="Password changed" extra={<Link to="/login">Sign in with your new password</Link>} />;
  }
  return (
    <Form
      layout="vertical"
      onFinish={async ({ password }: { password: string }) => {
        try {
          await confirmPasswordReset(firebaseAuth(), oobCode, password);
          setSaved(true);
        } catch (caught) {
          setError(identityErrorMessage(caught));
        }
      }}
    >
      <p>Choose a new password for {email}.</p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item name="password" label="New password" rules={[{ required: true, message: "Choose a password" }, { min: 6, message: "Use at least 6 characters" }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block>
        Save password
      </Button>
    </Form>
  );
}

export function HandleEmailActionPage() {
  const [searchParams] = useSearchParams();
  const params = parseEmailActionParams(searchParams);
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });

  useEffect(() => {
    if (!params.ok || params.mode === "signIn") return;
    const auth = firebaseAuth();
    const run = async (): Promise<Outcome> => {
      if (params.mode === "resetPassword") return { state: "reset", email: await verifyPasswordResetCode(auth, params.oobCode) };
      if (params.mode === "recoverEmail") await checkActionCode(auth, params.oobCode);
      await applyActionCode(auth, params.oobCode);
      await auth.currentUser?.reload();
      return { state: "done", message: done[params.mode as keyof typeof done] };
    };
    run().then(setOutcome, (error) => setOutcome({ state: "failed", message: identityErrorMessage(error) }));
    // The link's parameters are read once; they do not change while the page is open.
  }, []);

  if (!params.ok) {
    return (
      <AuthCard title="This link cannot be used">
        <Alert type="error" showIcon message={params.error} description="Ask for a new email from the sign-in page." />
      </AuthCard>
    );
  }
  if (params.mode === "signIn") return <Navigate to={`/create-email-account?${searchParams.toString()}`} replace />;
  return (
    <AuthCard title="Your account">
      {outcome.state === "working" && <Spin />}
      {outcome.state === "done" && <Result status="success" title={outcome.message} extra={<Link to="/dashboard">Continue</Link>} />}
      {outcome.state === "failed" && <Result status="error" title="That did not work" subTitle={outcome.message} extra={<Link to="/login">Back to sign in</Link>} />}
      {outcome.state === "reset" && <ResetPasswordForm oobCode={params.oobCode} email={outcome.email} />}
    </AuthCard>
  );
}
