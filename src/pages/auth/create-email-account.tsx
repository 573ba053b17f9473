import { Alert, Button, Form, Input, Result, Spin } from "antd";
import { isSignInWithEmailLink, signInWithEmailLink } from "firebase/auth";
import { useCallback, useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { identityErrorCode, identityErrorMessage } from "../../lib/identity-errors";
import { safeRedirect } from "../../providers/auth-provider";
import { firebaseAuth } from "../../providers/firebase";
import { AuthCard } from "./auth-card";

/** Where the sign-in page remembers the address a link was sent to, for opening it on the same device. */
export const EMAIL_FOR_SIGN_IN_KEY = "emailForSignIn";

/** Where to go after signing in: `to` on this page, or inside the link's continueUrl (the identity service keeps it there). */
function destination(params: URLSearchParams): string {
  if (params.get("to")) return safeRedirect(params.get("to"));
  try {
    return safeRedirect(new URL(params.get("continueUrl") ?? "").searchParams.get("to"));
  } catch {
    return safeRedirect(null);
  }
}

/**
 * Completes an email-link sign-in (which also creates the account the first time). On the device
 * that asked for the link the address is remembered; on another device the user types it, since
 * the identity service only accepts the link together with the address it was sent to.
 */
export function CreateEmailAccountPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const to = destination(params);
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<"working" | "need-email" | "signing-in">("working");
  const link = window.location.href;
  const valid = isSignInWithEmailLink(firebaseAuth(), link);

  const complete = useCallback(
    async (email: string) => {
      setState("signing-in");
      setError(null);
      try {
        await signInWithEmailLink(firebaseAuth(), email.trim(), link);
        window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
        navigate(to, { replace: true });
      } catch (caught) {
        setError(
          identityErrorCode(caught) === "invalid-email"
            ? "That is not the address this link was sent to. Enter the address you asked for the link with."
            : identityErrorMessage(caught),
        );
        setState("need-email");
      }
    },
    [link, navigate, to],
  );

  useEffect(() => {
    if (!valid) return;
    const remembered = window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
    if (remembered) void complete(remembered);
    else setState("need-email");
    // The link is read once; completing it twice would fail on the used code.
  }, []);

  if (!valid) {
    return (
      <AuthCard title="Sign in with a link">
        <Result
          status="error"
          title="This sign-in link is not valid"
          subTitle="It may be incomplete or copied wrongly. Ask for a new link from the sign-in page."
          extra={<Link to="/login">Back to sign in</Link>}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Finish signing in">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      {state === "working" && <Spin aria-label="Signing you in" />}
      {state !== "working" && (
        <Form layout="vertical" onFinish={({ email }: { email: string }) => complete(email)}>
          <p>
            This link was opened on a different device or browser from the one that asked for it. Confirm the email
            address the link was sent to.
          </p>
          <Form.Item
            name="email"
            label="Email"
            rules={[{ required: true, type: "email", message: "Enter the email address the link was sent to" }]}
          >
            <Input type="email" autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={state === "signing-in"}>
            Sign in
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
