import { Alert, Button, Flex, Typography } from "antd";
import { sendEmailVerification } from "firebase/auth";
import { useState } from "react";
import { Navigate } from "react-router";
import { Link } from "../../components/link";
import { identityErrorMessage } from "../../lib/identity-errors";
import { useSessionState } from "../../providers/session-context";
import { AuthCard } from "./auth-card";

export function ConfirmAccountPage() {
  const { user, ready } = useSessionState();
  const [message, setMessage] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [verified, setVerified] = useState(false);

  if (ready && !user) return <Navigate to="/login?to=/confirm-account" replace />;

  const resend = async () => {
    if (!user) return;
    try {
      await sendEmailVerification(user);
      setMessage({ type: "success", text: `We sent a new link to ${user.email}.` });
    } catch (error) {
      setMessage({ type: "error", text: identityErrorMessage(error) });
    }
  };

  const check = async () => {
    if (!user) return;
    await user.reload();
    if (user.emailVerified) {
      // A fresh token carries email_verified for the server too.
      await user.getIdToken(true);
      setVerified(true);
    } else setMessage({ type: "error", text: "Not verified yet: open the link in the email we sent, then check again." });
  };

  return (
    <AuthCard title={verified || user?.emailVerified ? "Your email is verified" : "Check your inbox"}>
      {verified || user?.emailVerified ? (
        <Link to="/dashboard">
          <Button type="primary" block>
            Go to your dashboard
          </Button>
        </Link>
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph>
            We sent a verification link to <strong>{user?.email}</strong>. Open it to confirm your address.
          </Typography.Paragraph>
          {message && <Alert type={message.type} showIcon message={message.text} />}
          <Button type="primary" onClick={check}>
            I have verified my email
          </Button>
          <Button onClick={resend}>Send the link again</Button>
        </Flex>
      )}
    </AuthCard>
  );
}
