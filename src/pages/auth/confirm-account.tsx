import { Alert, Button, Flex, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { failureText } from "../../lib/http-errors";
import { identityErrorMessage } from "../../lib/identity-errors";
import { safeRedirect } from "../../providers/auth-provider";
import { useSessionState } from "../../providers/session-context";
import { AuthCard } from "./auth-card";
import { verificationContinuePath } from "./create-account";
import { useEmailLinks } from "./email-links";

/** "Check your inbox" after sign-up: resend the link, and notice when the address has been verified (here or in another tab). */
export function ConfirmAccountPage() {
  const { user, ready } = useSessionState();
  const [params] = useSearchParams();
  const to = params.get("to");
  const [message, setMessage] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [verified, setVerified] = useState(false);
  const { sendVerification, busy } = useEmailLinks();

  const check = useCallback(
    async (quiet: boolean) => {
      if (!user) return;
      try {
        await user.reload();
        if (user.emailVerified) {
          // A fresh token carries email_verified for the server too.
          await user.getIdToken(true);
          setVerified(true);
        } else if (!quiet) {
          setMessage({
            type: "error",
            text: "Not verified yet: open the link in the email we sent, then check again.",
          });
        }
      } catch (error) {
        if (!quiet) setMessage({ type: "error", text: identityErrorMessage(error) });
      }
    },
    [user],
  );

  // The link is usually opened in another tab: look again whenever the user comes back to this one.
  useEffect(() => {
    void check(true);
    const onFocus = () => void check(true);
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [check]);

  if (ready && !user)
    return (
      <Navigate
        to={`/login?to=${encodeURIComponent(`/confirm-account${to ? `?to=${encodeURIComponent(to)}` : ""}`)}`}
        replace
      />
    );

  const resend = async () => {
    if (!user) return;
    try {
      await sendVerification(user.uid, verificationContinuePath(to));
      setMessage({ type: "success", text: `We sent a new link to ${user.email}.` });
    } catch (error) {
      setMessage({ type: "error", text: failureText(error) });
    }
  };

  const isVerified = verified || user?.emailVerified;
  return (
    <AuthCard title={isVerified ? "Your email is verified" : "Check your inbox"}>
      {isVerified ? (
        <Flex vertical gap={12}>
          <Typography.Paragraph>
            You are signed in as <strong>{user?.email}</strong>.
          </Typography.Paragraph>
          <Link to={safeRedirect(to)}>
            <Button type="primary" block>
              Continue
            </Button>
          </Link>
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph>
            We sent a verification link to <strong>{user?.email}</strong>. Open it to confirm your address.
          </Typography.Paragraph>
          {message && (
            <Alert
              type={message.type}
              showIcon
              message={message.text}
              role={message.type === "error" ? "alert" : "status"}
            />
          )}
          <Button type="primary" onClick={() => void check(false)}>
            I have verified my email
          </Button>
          <Button onClick={resend} loading={busy}>
            Send the link again
          </Button>
          <Link to={`/mail-to-redirect?email=${encodeURIComponent(user?.email ?? "")}`}>Open my mail</Link>
        </Flex>
      )}
    </AuthCard>
  );
}
