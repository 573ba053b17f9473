import { zodResolver } from "@hookform/resolvers/zod";
import { useLogin } from "@refinedev/core";
import { Alert, Button, Card, Flex, Form, Input, Typography } from "antd";
import { Controller, useForm } from "react-hook-form";
import { Navigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { z } from "zod";
import { safeRedirect } from "../../providers/auth-provider";
import { useSessionState } from "../../providers/session-context";

const loginSchema = z.object({
  email: z.string().trim().min(1, "Enter your email").email("That email address is not valid"),
  password: z.string().min(1, "Enter your password"),
});
type LoginValues = z.infer<typeof loginSchema>;

export function LoginPage() {
  const [params] = useSearchParams();
  const to = safeRedirect(params.get("to"));
  const session = useSessionState();
  const { mutate: login, isPending, data } = useLogin<LoginValues & { to: string }>();
  const { control, handleSubmit, formState } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "" },
  });

  if (session.user) return <Navigate to={to} replace />;
  const failure = data && !data.success ? data.error?.message : null;

  return (
    <Flex justify="center" style={{ padding: "48px 0" }}>
      <Card style={{ width: "100%", maxWidth: 420 }}>
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          Sign in
        </Typography.Title>
        {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} role="alert" />}
        <Form layout="vertical" onFinish={handleSubmit((values) => login({ ...values, to }))} noValidate>
          <Controller
            control={control}
            name="email"
            render={({ field }) => (
              <Form.Item label="Email" htmlFor="email" validateStatus={formState.errors.email ? "error" : ""} help={formState.errors.email?.message}>
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
        <Flex justify="space-between" style={{ marginTop: 16 }}>
          <Link to="/forgot-password">Forgot password?</Link>
          <Link to="/create-account">Create an account</Link>
        </Flex>
      </Card>
    </Flex>
  );
}
