import { GoogleOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, Typography } from "antd";
import {
  type AuthCredential,
  browserPopupRedirectResolver,
  GoogleAuthProvider,
  getRedirectResult,
  linkWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  signInWithRedirect,
  type User,
} from "firebase/auth";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { identityErrorCode, identityErrorMessage, isIdpCancellation } from "../../lib/identity-errors";
import { firebaseAuth } from "../../providers/firebase";
import { notificationProvider } from "../../providers/notification-provider";

/** Set while the browser is away at the identity service after a blocked popup (see below). */
const REDIRECT_PENDING_KEY = "google-sign-in-redirect";
// The SDK is started without a popup/redirect resolver (src/providers/firebase.ts: initializeAuth
// with persistence only, so pages that never use one do not load it); these calls hand in theirs.

type Step = { step: "idle" } | { step: "busy" } | { step: "link"; email: string; credential: AuthCredential };

/**
 * "Continue with Google": signs in, or signs up, through Google (locally the Auth emulator's own
 * page of fake accounts). An email that already has an account with a password gives
 * `account-exists-with-different-credential`: the user is told so, asked for that
 * password, signed in with it, and the Google credential is linked to the account, so either way
 * of signing in works from then on.
 *
 * `onHold(true)` while the flow runs: the sign-in page must not leave as soon as someone is signed
 * in, which in the linking step happens before the link is made.
 */
export function ContinueWithGoogle({ to, onHold }: { to: string; onHold?: (holding: boolean) => void }) {
  const navigate = useNavigate();
  const [state, setState] = useState<Step>({ step: "idle" });
  const [error, setError] = useState<string | null>(null);

  const done = () => {
    setState({ step: "idle" });
    onHold?.(false);
    navigate(to, { replace: true });
  };

  const failed = (caught: unknown) => {
    onHold?.(false);
    const credential = GoogleAuthProvider.credentialFromError(caught as never);
    const email = (caught as { customData?: { email?: unknown } }).customData?.email;
    if (
      identityErrorCode(caught) === "account-exists-with-different-credential" &&
      credential &&
      typeof email === "string"
    ) {
      setState({ step: "link", email, credential });
      return;
    }
    setState({ step: "idle" });
    if (!isIdpCancellation(caught)) setError(identityErrorMessage(caught));
  };

  // Back from the identity service's page after a redirect (the popup was blocked).
  useEffect(() => {
    if (!window.sessionStorage.getItem(REDIRECT_PENDING_KEY)) return;
    window.sessionStorage.removeItem(REDIRECT_PENDING_KEY);
    onHold?.(true);
    setState({ step: "busy" });
    getRedirectResult(firebaseAuth(), browserPopupRedirectResolver).then(
      (result) => (result ? done() : (onHold?.(false), setState({ step: "idle" }))),
      failed,
    );
    // Once, on arrival.
  }, []);

  const start = async () => {
    setError(null);
    onHold?.(true);
    setState({ step: "busy" });
    const provider = new GoogleAuthProvider();
    provider.setCustomParameters({ prompt: "select_account" });
    try {
      await signInWithPopup(firebaseAuth(), provider, browserPopupRedirectResolver);
      done();
    } catch (caught) {
      if (identityErrorCode(caught) === "popup-blocked") {
        // No popup allowed: the same sign-in in this tab, finished by the effect above on return.
        window.sessionStorage.setItem(REDIRECT_PENDING_KEY, "1");
        try {
          await signInWithRedirect(firebaseAuth(), provider, browserPopupRedirectResolver);
          return;
        } catch (redirectError) {
          window.sessionStorage.removeItem(REDIRECT_PENDING_KEY);
          failed(redirectError);
          return;
        }
      }
      failed(caught);
    }
  };

  const link = async ({ password }: { password: string }) => {
    if (state.step !== "link") return;
    const { email, credential } = state;
    setError(null);
    onHold?.(true);
    let user: User;
    try {
      ({ user } = await signInWithEmailAndPassword(firebaseAuth(), email, password));
    } catch (caught) {
      onHold?.(false);
      setError(identityErrorMessage(caught));
      return;
    }
    try {
      await linkWithCredential(user, credential);
    } catch (caught) {
      // Signed in with the password all the same: say what did not work and carry on.
      notificationProvider.open?.({
        key: "google-link",
        type: "error",
        message: "Google was not added to your account",
        description: identityErrorMessage(caught),
      });
    }
    done();
  };

  if (state.step === "link") {
    return (
      <Flex vertical gap={12}>
        <Alert
          type="info"
          showIcon
          message="You already have an account with a password"
          description={`${state.email} already has an account that signs in with a password. Enter that password to sign in; Google is then added to the account, so you can use either next time.`}
        />
        {error && <Alert type="error" showIcon message={error} role="alert" />}
        <Form name="google-link" layout="vertical" onFinish={link} requiredMark={false}>
          <Typography.Paragraph style={{ marginBottom: 8 }}>
            Email: <strong>{state.email}</strong>
          </Typography.Paragraph>
          <Form.Item
            name="password"
            label="Password of this account"
            rules={[{ required: true, message: "Enter your password" }]}
          >
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
          <Flex gap={8} justify="end">
            <Button onClick={() => (setState({ step: "idle" }), setError(null))}>Cancel</Button>
            <Button type="primary" htmlType="submit">
              Sign in and add Google
            </Button>
          </Flex>
        </Form>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={12}>
      {error && <Alert type="error" showIcon message={error} role="alert" />}
      <Button block icon={<GoogleOutlined />} onClick={start} loading={state.step === "busy"}>
        Continue with Google
      </Button>
    </Flex>
  );
}
