import { Alert, Button, Form, Input, Typography } from "antd";
import { createUserWithEmailAndPassword, sendEmailVerification, updateProfile } from "firebase/auth";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../../components/link";
import { firebaseAuth } from "../../lib/firebase";
import { identityErrorMessage } from "../../lib/identity-errors";
import { AuthCard } from "./auth-card";

const MIN_PASSWORD_LENGTH = 6;

interface SignUp {
  displayName: string;
  email: string;
  password: string;
}

export function CreateAccountPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async ({ displayName, email, password }: SignUp) => {
    setBusy(true);
    setError(null);
    try {
      const { user } = await createUserWithEmailAndPassword(firebaseAuth(), email, password);
      await updateProfile(user, { displayName });
      await sendEmailVerification(user);
      navigate("/confirm-account");
    } catch (caught) {
      setError(identityErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Create your account">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form layout="vertical" onFinish={create}>
        <Form.Item name="displayName" label="Name" rules={[{ required: true, whitespace: true, message: "Enter your name" }]}>
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
        <Form.Item
          name="password"
          label="Password"
          rules={[
            { required: true, message: "Choose a password" },
            { min: MIN_PASSWORD_LENGTH, message: `Use at least ${MIN_PASSWORD_LENGTH} characters` },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Create account
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        Already have an account? <Link to="/login">Sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
