import { Typography } from "antd";
import { LandingSection } from "./section";

export function DealerAccountRequestPage() {
  return (
    <LandingSection title="Become a dealer" lead="Sell your tunes and work custom requests through the portal.">
      <Typography.Paragraph>
        Dealers publish tune files per firmware, price them, protect them from copying, and receive custom tuning requests with the
        customer's stock read and logs attached. Sign in or create an account, then send your business details for approval.
      </Typography.Paragraph>
    </LandingSection>
  );
}
