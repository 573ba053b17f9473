import { CheckCircleFilled, CloseCircleOutlined } from "@ant-design/icons";
import { Form, Input, theme } from "antd";
import { useCallback, useEffect, useState } from "react";
import {
  DEFAULT_PASSWORD_POLICY,
  fetchPasswordPolicy,
  meetsPasswordPolicy,
  type PasswordPolicy,
  passwordChecklist,
} from "../../lib/password-policy";
import { loadRuntimeConfig } from "../../lib/runtime-config";

/** The identity service's password policy, and a way to read it again when the service says it changed. */
export function usePasswordPolicy() {
  const [policy, setPolicy] = useState<PasswordPolicy>(DEFAULT_PASSWORD_POLICY);
  const refetch = useCallback(async () => {
    const next = await fetchPasswordPolicy(await loadRuntimeConfig());
    setPolicy(next);
    return next;
  }, []);
  useEffect(() => {
    void refetch();
  }, [refetch]);
  return { policy, refetch };
}

function Checklist({ password, policy }: { password: string; policy: PasswordPolicy }) {
  const { token } = theme.useToken();
  return (
    <ul aria-label="Password requirements" style={{ listStyle: "none", padding: 0, margin: "8px 0 0" }}>
      {passwordChecklist(password, policy).map((rule) => (
        <li
          key={rule.key}
          style={{ color: rule.met ? token.colorSuccessText : token.colorTextSecondary, display: "flex", gap: 6 }}
        >
          {rule.met ? <CheckCircleFilled aria-hidden /> : <CloseCircleOutlined aria-hidden />}
          <span>
            {rule.label}
            <span
              className="sr-only"
              style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}
            >
              {rule.met ? " (met)" : " (not met yet)"}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A new-password field with the live checklist; the form refuses to submit until every rule is met. */
export function NewPasswordField({
  policy,
  name = "password",
  label = "Password",
}: {
  policy: PasswordPolicy;
  name?: string;
  label?: string;
}) {
  const form = Form.useFormInstance();
  const password: string = Form.useWatch(name, form) ?? "";
  return (
    <Form.Item
      name={name}
      label={label}
      extra={<Checklist password={password} policy={policy} />}
      rules={[
        { required: true, message: "Choose a password" },
        {
          validator: async (_rule, value: string | undefined) => {
            if (value && !meetsPasswordPolicy(value, policy))
              throw new Error("The password does not meet every requirement below");
          },
        },
      ]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}
