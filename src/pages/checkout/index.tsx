/**
 * Paying an order. With Stripe configured, Stripe's Payment Element (card details go to Stripe,
 * never through the portal). Without it, the sandbox's card form, which takes the usual test
 * cards: paying sends the card to the portal, whose sandbox provider answers as Stripe would,
 * through the same signed webhook. Either way the order, and the licence it makes, come from the
 * provider's event.
 */
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Flex, Input, Result, Spin, Typography } from "antd";
import { lazy, Suspense, useState } from "react";
import { useParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import { type Checkout, type Order, SANDBOX_CARDS, type SandboxPaymentResult } from "../../../contracts/payments";
import { Link } from "../../components/link";
import { PageFrame } from "../../components/page-frame";
import { useRecordMissing } from "../../components/record-not-found";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { formatMoney } from "../../lib/money";
import { OrderParties } from "./order-parties";
import { Receipt } from "./receipt";

// Stripe's Payment Element, and Stripe.js with it, load only when a real key is set and a checkout opens.
const StripePayment = lazy(() => import("./stripe-payment").then((module) => ({ default: module.StripePayment })));

const cardError = (failure: HttpError) => {
  const field = fieldMessage(failure, "cardNumber");
  return field ? `${field}: ${failureText(failure)}` : failureText(failure);
};

/** The sandbox's card form. */
function SandboxCard({
  order,
  onPaid,
  onCancelled,
}: {
  order: Order;
  onPaid: (order: Order) => void;
  onCancelled: () => void;
}) {
  const pay = useCustomMutation<SandboxPaymentResult>();
  const cancel = useCustomMutation();
  const [card, setCard] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const submit = () => {
    setError(null);
    setDeclined(null);
    pay.mutate(
      {
        url: apiRoutes.payments.sandboxPay(),
        method: "post",
        values: { orderId: order.id, cardNumber: card },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => (data.status === "declined" ? setDeclined(data.message) : onPaid(data.order)),
        onError: (failure: HttpError) => setError(cardError(failure)),
      },
    );
  };
  return (
    <Flex vertical gap={16}>
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
        <Input
          id="card-number"
          inputMode="numeric"
          autoComplete="cc-number"
          value={card}
          status={error ? "error" : undefined}
          onChange={(event) => setCard(event.target.value)}
          onPressEnter={submit}
        />
        {error && (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        )}
      </Flex>
      {(declined || order.status === "failed") && (
        <Alert
          type="error"
          showIcon
          message="Payment declined"
          description={`${declined ?? "The last card was declined"}. Try another card.`}
        />
      )}
      <Flex gap={8}>
        <Button type="primary" onClick={submit} loading={pay.mutation.isPending}>
          Pay {formatMoney(order.amountCents, order.currency)}
        </Button>
        <Button
          onClick={() =>
            cancel.mutate(
              {
                url: apiRoutes.payments.expireSession(),
                method: "post",
                values: { orderId: order.id },
                successNotification: false,
              },
              { onSuccess: onCancelled },
            )
          }
          loading={cancel.mutation.isPending}
        >
          Cancel
        </Button>
      </Flex>
    </Flex>
  );
}

export function CheckoutPage() {
  const { orderId = "" } = useParams();
  const { query } = useCustom<Checkout>({
    url: apiRoutes.payments.order(orderId),
    method: "get",
    queryOptions: { enabled: Boolean(orderId) },
    errorNotification: false,
  });
  const missing = useRecordMissing(query.error);
  const [paid, setPaid] = useState<Order | null>(null);
  const checkout = query.data?.data;
  const order = paid ?? checkout?.order;

  if (missing) return null;
  if (query.isLoading) return <Spin />;
  if (!checkout || !order)
    return <Alert type="error" showIcon message="This checkout does not exist" description={query.error?.message} />;
  // A custom tune's checkout returns to its ticket on the car's page.
  const back = order.vehicleId
    ? `/my-devices/${order.vehicleId}${order.tuningRequestId ? `?request=${order.tuningRequestId}` : ""}`
    : "/my-tunes";
  const paidTitle =
    order.kind === "tuning-request"
      ? `${order.title} is paid: the dealer starts work`
      : `${order.title} is licensed for your car`;
  const open = order.status === "created" || order.status === "failed";

  return (
    <PageFrame
      title="Checkout"
      subtitle={checkout.provider === "sandbox" ? "Sandbox payments: no money moves" : "Secure payment"}
    >
      <Card style={{ maxWidth: 560 }}>
        {order.status === "paid" ? (
          <Flex vertical gap={16}>
            <Result
              status="success"
              title={paidTitle}
              subTitle={`Paid ${formatMoney(order.amountCents, order.currency)}.`}
              extra={<Link to={back}>Back to the car</Link>}
            />
            <Receipt checkout={checkout} order={order} />
          </Flex>
        ) : !open ? (
          <Result
            status="warning"
            title={`This order is ${order.status}`}
            extra={<Link to={back}>Back to the car</Link>}
          />
        ) : (
          <Flex vertical gap={16}>
            <OrderParties checkout={checkout} price={formatMoney(order.amountCents, order.currency)} />
            {checkout.provider === "sandbox" ? (
              <SandboxCard order={order} onPaid={setPaid} onCancelled={() => void query.refetch()} />
            ) : checkout.clientSecret && checkout.publishableKey ? (
              <Suspense fallback={<Spin />}>
                <StripePayment
                  publishableKey={checkout.publishableKey}
                  clientSecret={checkout.clientSecret}
                  label={`Pay ${formatMoney(order.amountCents, order.currency)}`}
                  returnUrl={`${window.location.origin}${back}`}
                />
              </Suspense>
            ) : (
              <Alert
                type="error"
                showIcon
                message="Payments are not available"
                description="The portal has no publishable key for the payment provider (STRIPE_PUBLISHABLE_KEY); nothing was charged."
              />
            )}
          </Flex>
        )}
      </Card>
    </PageFrame>
  );
}
