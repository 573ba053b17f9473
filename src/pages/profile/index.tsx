import { useCustom, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Button, Card, Col, Descriptions, Form, Input, Row, Select, Switch } from "antd";
import { useEffect } from "react";
import type { Account } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import { DealerAboutCard } from "../../components/dealers/about-card";
import { PageFrame } from "../../components/page-frame";
import { BusinessIdentityCard } from "../../components/profile-change-requests/dealer-card";
import { useSessionState } from "../../providers/session-context";
import { ProfilePhoto } from "./photo";
import { EmailCard, PasswordCard, SessionsCard } from "./security";

interface ProfileForm {
  displayName: string;
  units?: "metric" | "imperial";
  emailNotifications: boolean;
}

export function ProfilePage() {
  const { query } = useCustom<Account>({ url: apiRoutes.account.mine(), method: "get" });
  // `result` starts as an empty object; the query data is undefined until the answer arrives.
  const account = query.data?.data;
  const [form] = Form.useForm<ProfileForm>();
  const { mutate, mutation } = useCustomMutation<Account>();
  const invalidate = useInvalidate();
  const { user } = useSessionState();

  useEffect(() => {
    if (account)
      form.setFieldsValue({
        displayName: account.displayName ?? "",
        units: account.profile.preferences.units,
        emailNotifications: account.profile.preferences.emailNotifications === true,
      });
  }, [account, form]);

  const save = (values: ProfileForm) => {
    if (!account) return;
    mutate(
      {
        url: apiRoutes.account.of(account.uid),
        method: "patch",
        values: {
          displayName: values.displayName,
          preferences: {
            ...(values.units && { units: values.units }),
            emailNotifications: values.emailNotifications === true,
          },
        },
        successNotification: { type: "success", message: "Profile saved" },
      },
      {
        onSuccess: async () => {
          invalidate({ invalidates: ["all"] });
          // The display name lives in the ID token too (header, greetings): take a fresh one.
          await user?.reload();
          await user?.getIdToken(true);
        },
      },
    );
  };

  return (
    <PageFrame title="Profile" subtitle="Your account and preferences">
      <Card title="Account" loading={query.isLoading}>
        {user && (
          <div style={{ marginBottom: 16 }}>
            <ProfilePhoto key={user.uid} user={user} />
          </div>
        )}
        {account && (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Email">{account.email}</Descriptions.Item>
            <Descriptions.Item label="Role">{account.role}</Descriptions.Item>
            <Descriptions.Item label="Member since">
              {account.creationTime ? new Date(account.creationTime).toLocaleDateString() : "unknown"}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title="Details">
        <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 480 }}>
          <Form.Item
            name="displayName"
            label="Display name"
            rules={[
              { required: true, whitespace: true, message: "Display name cannot be empty" },
              { max: 80, message: "Display name is at most 80 characters" },
            ]}
          >
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item name="units" label="Units">
            <Select
              allowClear
              options={[
                { value: "metric", label: "Metric (bar, °C, km/h)" },
                { value: "imperial", label: "Imperial (psi, °F, mph)" },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="emailNotifications"
            label="Email me my notifications"
            valuePropName="checked"
            extra={
              account?.email
                ? `Each notification is also sent to ${account.email}.`
                : "Each notification is also sent to your email address."
            }
          >
            <Switch />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            Save
          </Button>
        </Form>
      </Card>
      {account?.profile.dealer && <BusinessIdentityCard uid={account.uid} />}
      {account?.profile.dealer && <DealerAboutCard uid={account.uid} />}
      {user && (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <EmailCard user={user} />
          </Col>
          <Col xs={24} xl={12}>
            <PasswordCard user={user} />
          </Col>
          <Col xs={24}>
            <SessionsCard user={user} />
          </Col>
        </Row>
      )}
    </PageFrame>
  );
}
