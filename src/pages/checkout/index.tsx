/**
 * The sandbox's checkout (no payment provider key is set): a card form that takes the usual test
 * cards. Paying sends the card to the portal, whose sandbox provider answers as Stripe would,
 * through the same signed webhook; the order, and the licence it makes, come from that event.
 */
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Flex, Input, Result, Spin, Typography } from "antd";
import { useState } from "react";
import { useParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import { type Checkout, SANDBOX_CARDS, type SandboxPaymentResult } from "../../../contracts/payments";
import { Link } from "../../components/link";
import { PageFrame } from "../../components/page-frame";
import { formatMoney } from "../../lib/money";

const fieldError = (failure: HttpError & { description?: string; data?: unknown }) => {
  const issue = Array.isArray(failure.data) ? (failure.data as Array<{ path?: string; message?: string }>).find((i) => i.path === "cardNumber") : undefined;
  return issue?.message ? `${issue.message}: ${failure.description ?? ""}`.trim() : (failure.description ?? failure.message);
};

export function CheckoutPage() {
  const { orderId = "" } = useParams();
  const { query } = useCustom<Checkout>({ url: apiRoutes.payments.order(orderId), method: "get", queryOptions: { enabled: Boolean(orderId) } });
  const pay = useCustomMutation<SandboxPaymentResult>();
  const cancel = useCustomMutation();
  const [card, setCard] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const checkout = query.data?.data;
  const order = pay.mutation.data?.data.order ?? checkout?.order;
  const back = order?.vehicleId ? `/my-devices/${order.vehicleId}` : "/my-tunes";

  if (query.isLoading) return <Spin />;
  if (!checkout || !order) return <Alert type="error" showIcon message="This checkout does not exist" description={query.error?.message} />;

  const submit = () => {
    setError(null);
    setDeclined(null);
    pay.mutate(
      { url: apiRoutes.payments.sandboxPay(), method: "post", values: { orderId: order.id, cardNumber: card }, successNotification: false, errorNotification: false },
      {
        onSuccess: ({ data }) => {
          if (data.status === "declined") setDeclined(data.message);
        },
        onError: (failure: HttpError & { description?: string; data?: unknown }) => setError(fieldError(failure)),
      },
    );
  };

  return (
    <PageFrame title="Checkout" subtitle="Sandbox payments: no money moves">
      <Card style={{ maxWidth: 560 }}>
        {order.status === "paid" ? (
          <Result status="success" title={`${order.title} is licensed for your car`} subTitle={`Paid ${formatMoney(order.amountCents, order.currency)}.`} extra={<Link to={back}>Back to the car</Link>} />
        ) : order.status !== "created" && order.status !== "failed" ? (
          <Result status="warning" title={`This order is ${order.status}`} extra={<Link to={back}>Back to the car</Link>} />
        ) : (
          <Flex vertical gap={16}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label="Tune">{order.title}</Descriptions.Item>
              <Descriptions.Item label="Price">{formatMoney(order.amountCents, order.currency)}</Descriptions.Item>
            </Descriptions>
            <Alert
              type="info"
              showIcon
              message="Sandbox card numbers"
              description={Object.entries(SANDBOX_CARDS)
                .map(([number, known]) => `${number.replace(/(\d{4})(?=\d)/g, "$1 ")}: ${known.label}`)
                .join(" · ")}
            />
            <Flex vertical gap={4}>
              <label htmlFor="card-number">Card number</label>
              <Input id="card-number" inputMode="numeric" autoComplete="cc-number" value={card} status={error ? "error" : undefined} onChange={(event) => setCard(event.target.value)} onPressEnter={submit} />
              {error && (
                <Typography.Text type="danger" role="alert">
                  {error}
                </Typography.Text>
              )}
            </Flex>
            {(declined || order.status === "failed") && <Alert type="error" showIcon message="Payment declined" description={`${declined ?? "The last card was declined"}. Try another card.`} />}
            <Flex gap={8}>
              <Button type="primary" onClick={submit} loading={pay.mutation.isPending}>
                Pay {formatMoney(order.amountCents, order.currency)}
              </Button>
              <Button
                onClick={() => cancel.mutate({ url: apiRoutes.payments.expireSession(), method: "post", values: { orderId: order.id }, successNotification: false }, { onSuccess: () => void query.refetch() })}
                loading={cancel.mutation.isPending}
              >
                Cancel
              </Button>
            </Flex>
          </Flex>
        )}
      </Card>
    </PageFrame>
  );
}
