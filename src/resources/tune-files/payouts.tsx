/**
 * A dealer's payout account: whether it takes charges (a priced tune is sold only then), what the
 * provider still needs, and the way to set it up (the provider's onboarding, or the sandbox's).
 */
import { type HttpError, useCustom, useCustomMutation, useGo } from "@refinedev/core";
import { Alert, Button, Card, Space, Tag, Typography } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import type { ConnectedAccount } from "../../../contracts/payments";

export function PayoutAccount({ uid }: { uid: string }) {
  const go = useGo();
  const { query } = useCustom<{ account: ConnectedAccount | null }>({
    url: apiRoutes.users.connectedAccount(uid),
    method: "get",
  });
  const start = useCustomMutation<{ account: ConnectedAccount; onboardingUrl: string }>();
  const account = query.data?.data.account ?? null;
  const setUp = () =>
    start.mutate(
      { url: apiRoutes.users.connectedAccount(uid), method: "post", values: {}, successNotification: false },
      {
        onSuccess: ({ data }) => {
          // The sandbox's page is in the portal; the provider's is elsewhere.
          if (data.onboardingUrl.startsWith("/")) go({ to: data.onboardingUrl });
          else window.location.assign(data.onboardingUrl);
        },
      },
    );
  return (
    <Card title="Payout account" size="small" loading={query.isLoading}>
      {query.isError && (
        <Alert
          type="error"
          showIcon
          message="Could not load the payout account"
          description={(query.error as HttpError | null)?.message}
        />
      )}
      {account?.ready ? (
        <Space wrap data-testid="payout-account">
          <Tag color="green">takes payments</Tag>
          <Tag color={account.payoutsEnabled ? "green" : "gold"}>
            {account.payoutsEnabled ? "payouts enabled" : "payouts pending"}
          </Tag>
          <Typography.Text type="secondary">
            {account.provider === "sandbox" ? "Sandbox account" : "Stripe account"} {account.accountId}
          </Typography.Text>
        </Space>
      ) : (
        <Space direction="vertical" data-testid="payout-account">
          <Typography.Text>
            {account ? "Your payout account is not finished yet" : "Set up a payout account to sell priced tunes"}
            {account?.requirementsDue.length ? `: still needed ${account.requirementsDue.join(", ")}` : "."}
          </Typography.Text>
          <Button type="primary" onClick={setUp} loading={start.mutation.isPending}>
            {account ? "Continue setup" : "Set up payouts"}
          </Button>
        </Space>
      )}
    </Card>
  );
}
