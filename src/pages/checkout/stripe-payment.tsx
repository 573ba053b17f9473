/**
 * Paying with Stripe's Payment Element, when the portal has a Stripe key: Stripe.js is fetched
 * from Stripe only here (the `pure` entry does not load it on import), the card details go to
 * Stripe and never through the portal, and Stripe returns the browser to the car's page. The
 * order and the licence then follow from Stripe's event to the webhook, as in the sandbox.
 */
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { Alert, Button, Flex } from "antd";
import { useMemo, useState } from "react";

function PayButton({ label, returnUrl }: { label: string; returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const pay = async () => {
    if (!stripe || !elements) return;
    setPaying(true);
    setError(null);
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
    // Only a failure comes back here: a success leaves for `returnUrl`.
    if (result.error) setError(result.error.message ?? "The payment was not made");
    setPaying(false);
  };
  return (
    <Flex vertical gap={12}>
      <PaymentElement />
      {error && <Alert type="error" showIcon message="Payment declined" description={error} />}
      <Button type="primary" onClick={() => void pay()} loading={paying} disabled={!stripe || !elements}>
        {label}
      </Button>
    </Flex>
  );
}

export function StripePayment({
  publishableKey,
  clientSecret,
  label,
  returnUrl,
}: {
  publishableKey: string;
  clientSecret: string;
  label: string;
  returnUrl: string;
}) {
  const stripe = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret }}>
      <PayButton label={label} returnUrl={returnUrl} />
    </Elements>
  );
}
