import { Alert, Button, Flex, Form, Result, Spin } from "antd";
import { applyActionCode, checkActionCode, confirmPasswordReset, verifyPasswordResetCode } from "firebase/auth";
import { useEffect, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { type EmailActionMode, parseEmailActionParams } from "../../lib/email-action";
import { failureText } from "../../lib/http-errors";
import { identityErrorCode, identityErrorMessage } from "../../lib/identity-errors";
import { firebaseAuth } from "../../providers/firebase";
import { AuthCard } from "./auth-card";
import { useEmailLinks } from "./email-links";
import { NewPasswordField, usePasswordPolicy } from "./password-field";

type AppliedMode = Exclude<EmailActionMode, "resetPassword" | "signIn">;

const done: Record<AppliedMode, { title: string; text: string }> = {
  verifyEmail: {
    title: "Email verified",
    text: "Your email address is verified. You can use every part of the portal.",
  },
  verifyAndChangeEmail: {
    title: "Email changed",
    text: "Your new email address is verified and is now the one you sign in with.",
  },
  recoverEmail: { title: "Email restored", text: "Your previous email address is your sign-in address again." },
  revertSecondFactorAddition: {
    title: "Second factor removed",
    text: "The second factor that was just added to your account has been removed.",
  },
};

type Outcome =
  | { state: "working" }
  | { state: "done"; mode: AppliedMode; email: string | null }
  | { state: "failed"; message: string }
  | { state: "reset"; email: string };

/** The link's continueUrl, when it points back into this portal; anything else is not followed. */
function continuePath(continueUrl: string | null): string {
  if (!continueUrl) return "/dashboard";
  try {
    const url = new URL(continueUrl, window.location.origin);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}` : "/dashboard";
  } catch {
    return "/dashboard";
  }
}

function ResetPasswordForm({ oobCode, email }: { oobCode: string; email: string }) {
  const [form] = Form.useForm<{ password: string }>();
  const { policy, refetch } = usePasswordPolicy();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  if (saved) {
    return (
      <Result
        status="success"
        title="Password changed"
        subTitle="Other devices signed in to your account will be asked to sign in again."
        extra={<Link to={`/login?email=${encodeURIComponent(email)}`}>Sign in with your new password</Link>}
      />
    );
  }
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={async ({ password }) => {
        setBusy(true);
        setError(null);
        try {
          await confirmPasswordReset(firebaseAuth(), oobCode, password);
          setSaved(true);
        } catch (caught) {
          setError(identityErrorMessage(caught));
          if (identityErrorCode(caught) === "password-does-not-meet-requirements") {
            await refetch();
            void form.validateFields(["password"]).catch(() => {});
          }
        } finally {
          setBusy(false);
        }
      }}
    >
      <p>
        Choose a new password for <strong>{email}</strong>.
      </p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <NewPasswordField policy={policy} label="New password" />
      <Button type="primary" htmlType="submit" block loading={busy}>
        Save password
      </Button>
    </Form>
  );
}

/** After an email was restored, the owner is offered a password reset: someone else may know the password. */
function RecoveredEmail({ email }: { email: string | null }) {
  const [sent, setSent] = useState<string | null>(null);
  const { askPasswordReset } = useEmailLinks();
  if (!email) return null;
  return sent ? (
    <Alert type="success" showIcon message={sent} role="status" />
  ) : (
    <Button
      onClick={() =>
        askPasswordReset(email).then(
          () => setSent(`We sent a password reset link to ${email}.`),
          (error) => setSent(failureText(error)),
        )
      }
    >
      Reset my password too
    </Button>
  );
}

/**
 * The page every identity email links to (the action URL): it checks the link's parameters before
 * any call, then applies the action and says plainly whether it worked.
 */
export function HandleEmailActionPage() {
  const [searchParams] = useSearchParams();
  const params = parseEmailActionParams(searchParams);
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });

  useEffect(() => {
    if (!params.ok || params.mode === "signIn") return;
    const auth = firebaseAuth();
    const { mode, oobCode } = params;
    const run = async (): Promise<Outcome> => {
      if (mode === "resetPassword") return { state: "reset", email: await verifyPasswordResetCode(auth, oobCode) };
      // Read what the code is about before it is used up: recovery restores this address.
      const info = await checkActionCode(auth, oobCode);
      await applyActionCode(auth, oobCode);
      // The signed-in user (if it is them) sees the change without signing in again.
      if (auth.currentUser) await auth.currentUser.reload().then(() => auth.currentUser?.getIdToken(true));
      return { state: "done", mode, email: info.data.email ?? null };
    };
    run().then(setOutcome, (error) => setOutcome({ state: "failed", message: identityErrorMessage(error) }));
    // The link's parameters are read once; they do not change while the page is open.
  }, []);

  if (!params.ok) {
    return (
      <AuthCard title="This link cannot be used">
        <Alert
          type="error"
          showIcon
          message={params.error}
          description="Ask for a new email from the sign-in page."
          role="alert"
        />
        <p style={{ marginTop: 16, marginBottom: 0 }}>
          <Link to="/login">Back to sign in</Link>
        </p>
      </AuthCard>
    );
  }
  if (params.mode === "signIn") return <Navigate to={`/create-email-account?${searchParams.toString()}`} replace />;
  return (
    <AuthCard title={params.mode === "resetPassword" ? "Reset your password" : "Your account"}>
      {outcome.state === "working" && <Spin aria-label="Working" />}
      {outcome.state === "done" && (
        <Result
          status="success"
          title={done[outcome.mode].title}
          subTitle={done[outcome.mode].text}
          extra={
            <Flex vertical gap={12} align="center">
              {outcome.mode === "recoverEmail" && <RecoveredEmail email={outcome.email} />}
              <Link to={continuePath(params.continueUrl)}>Continue</Link>
            </Flex>
          }
        />
      )}
      {outcome.state === "failed" && (
        <Result
          status="error"
          title="That did not work"
          subTitle={outcome.message}
          extra={<Link to="/login">Back to sign in</Link>}
        />
      )}
      {outcome.state === "reset" && <ResetPasswordForm oobCode={params.oobCode} email={outcome.email} />}
    </AuthCard>
  );
}
