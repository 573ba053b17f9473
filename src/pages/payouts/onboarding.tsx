/**
 * The sandbox's payout onboarding (no payment provider key is set): where Stripe would ask for
 * the business's and bank's details, the sandbox only confirms; the account is then made ready
 * by the same signed `account.updated` event Stripe sends.
 */
import { type HttpError, useCustomMutation, useGo } from "@refinedev/core";
import { Alert, Button, Card, Flex, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { ConnectedAccount } from "../../../contracts/payments";
import { PageFrame } from "../../components/page-frame";
import { failureText } from "../../lib/http-errors";

export function PayoutOnboardingPage() {
  const go = useGo();
  const { mutate, mutation } = useCustomMutation<{ account: ConnectedAccount | null }>();
  const [error, setError] = useState<string | null>(null);
  const complete = () =>
    mutate(
      {
        url: apiRoutes.payments.sandboxOnboard(),
        method: "post",
        values: {},
        successNotification: { type: "success", message: "Payout account ready" },
        errorNotification: false,
      },
      {
        onSuccess: () => go({ to: "/my-tunes" }),
        onError: (failure: HttpError) => setError(failureText(failure)),
      },
    );
  return (
    <PageFrame title="Payout account" subtitle="Sandbox onboarding: no bank details are asked or kept">
      <Card style={{ maxWidth: 560 }}>
        <Flex vertical gap={12}>
          <Typography.Paragraph>
            With a payment provider configured, this is where its onboarding asks for your business, identity and bank
            details. In the sandbox the account is confirmed as it is.
          </Typography.Paragraph>
          {error && <Alert type="error" showIcon message="The account was not confirmed" description={error} />}
          <Button type="primary" onClick={complete} loading={mutation.isPending}>
            Complete onboarding
          </Button>
        </Flex>
      </Card>
    </PageFrame>
  );
}
