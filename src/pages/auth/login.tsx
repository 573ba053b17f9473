import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Divider, Flex, Form, Input, Typography } from "antd";
import { useState, useSyncExternalStore } from "react";
import { Controller, useForm } from "react-hook-form";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { z } from "zod";
import { Link } from "../../components/link";
import { failureText } from "../../lib/http-errors";
import { identityErrorMessage } from "../../lib/identity-errors";
import { signOutNotice } from "../../lib/sign-out-notice";
import { type SignInResult, safeRedirect, signIn } from "../../providers/auth-provider";
import { useServices } from "../../providers/services-context";
import { useSessionState } from "../../providers/session-context";
import { useSend } from "../../providers/use-request";
import { ContinueWithGoogle } from "./continue-with-google";
import { EMAIL_FOR_SIGN_IN_KEY } from "./create-email-account";
import { useEmailLinks } from "./email-links";
import "../landing/prose.css";

const email = z.string().trim().min(1, "Enter your email").pipe(z.email("That email address is not valid"));
const loginSchema = z.object({ email, password: z.string().min(1, "Enter your password") });
type LoginValues = z.infer<typeof loginSchema>;

const NETWORK_FAILURE = identityErrorMessage({ code: "auth/network-request-failed" });

/** Where an email sign-in link lands: the page that completes it, then on to `to`. */
export function emailLinkContinuePath(to: string): string {
  return `/create-email-account?to=${encodeURIComponent(to)}`;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const to = safeRedirect(params.get("to"));
  const session = useSessionState();
  // Why the account stream ended the last session (disabled, signed out everywhere, deleted).
  const notice = useSyncExternalStore(signOutNotice.subscribe, signOutNotice.current, signOutNotice.current);
  const services = useServices();
  // Signing in is the only step here that needs the identity SDK: the page itself loads without the portal's code.
  const [outcome, setOutcome] = useState<SignInResult | null>(null);
  const { send: login, pending: isPending } = useSend((values: LoginValues) =>
    signIn(services.session, { ...values, to }),
  );
  const reset = () => setOutcome(null);
  // While "Continue with Google" links an account, signing in is a step, not the end.
  const [googleHold, setGoogleHold] = useState(false);
  const [linkState, setLinkState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const { askSignInLink } = useEmailLinks();
  const { control, handleSubmit, formState, getValues, trigger } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: params.get("email") ?? "", password: "" },
  });

  if (session.user && !googleHold) return <Navigate to={to} replace />;
  const failure = outcome && !outcome.success ? outcome.error.message : null;
  const submit = handleSubmit(async (values) => {
    const result = await login(values);
    setOutcome(result);
    if (result.success) navigate(result.redirectTo, { replace: true });
  });

  const sendLink = async () => {
    reset();
    if (!(await trigger("email"))) return;
    const address = email.parse(getValues("email"));
    setLinkState({ busy: true, error: null });
    try {
      // Our server sends it, only to an address that has an account, and answers the same for any address.
      await askSignInLink(address, emailLinkContinuePath(to));
      // Opened on this device, the link completes without asking for the address again.
      window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, address);
      navigate(`/mail-to-redirect?email=${encodeURIComponent(address)}&purpose=sign-in`);
    } catch (error) {
      setLinkState({ busy: false, error: failureText(error) });
    }
  };

  const error = failure ?? linkState.error;
  return (
    <Flex justify="center" style={{ padding: "48px 0" }}>
      <Card className="prose" style={{ width: "100%", maxWidth: 420 }}>
        <Typography.Title level={1} style={{ marginTop: 0, fontSize: 30 }}>
          Sign in
        </Typography.Title>
        {notice && (
          <Alert
            type="warning"
            showIcon
            message="You have been signed out"
            description={notice}
            style={{ marginBottom: 16 }}
            data-testid="sign-out-notice"
          />
        )}
        {error && (
          <Alert
            type="error"
            showIcon
            message={error}
            style={{ marginBottom: 16 }}
            role="alert"
            action={
              error === NETWORK_FAILURE ? (
                <Button size="small" onClick={() => (failure ? void submit() : void sendLink())}>
                  Retry
                </Button>
              ) : undefined
            }
          />
        )}
        <Form layout="vertical" onFinish={submit} noValidate>
          <Controller
            control={control}
            name="email"
            render={({ field }) => (
              <Form.Item
                label="Email"
                htmlFor="email"
                validateStatus={formState.errors.email ? "error" : ""}
                help={formState.errors.email?.message}
              >
                <Input {...field} id="email" type="email" autoComplete="email" />
              </Form.Item>
            )}
          />
          <Controller
            control={control}
            name="password"
            render={({ field }) => (
              <Form.Item
                label="Password"
                htmlFor="password"
                validateStatus={formState.errors.password ? "error" : ""}
                help={formState.errors.password?.message}
              >
                <Input.Password {...field} id="password" autoComplete="current-password" />
              </Form.Item>
            )}
          />
          <Button type="primary" htmlType="submit" block loading={isPending}>
            Sign in
          </Button>
        </Form>
        <Divider plain>or</Divider>
        <Flex vertical gap={12}>
          <ContinueWithGoogle to={to} onHold={setGoogleHold} />
          <Button block onClick={sendLink} loading={linkState.busy}>
            Email me a sign-in link
          </Button>
        </Flex>
        <Flex justify="space-between" wrap gap={8} style={{ marginTop: 16 }}>
          <Link to="/forgot-password">Forgot password?</Link>
          <Link to={params.get("to") ? `/create-account?to=${encodeURIComponent(to)}` : "/create-account"}>
            Create an account
          </Link>
        </Flex>
      </Card>
    </Flex>
  );
}
