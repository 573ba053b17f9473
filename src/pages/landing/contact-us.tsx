import { Typography } from "antd";
import { LandingSection } from "./section";

export function ContactUsPage() {
  return (
    <LandingSection title="Contact us" lead="Questions about support for your car, a tune or your account? Write to us.">
      <Typography.Paragraph>
        Email <a href="mailto:support@tuning-portal.example.com">support@tuning-portal.example.com</a>. Include your vehicle, its VIN
        and, for flashing questions, the flash log from the app: it lets us answer in one reply.
      </Typography.Paragraph>
      <Typography.Paragraph>Dealers interested in selling through the portal can request a dealer account.</Typography.Paragraph>
    </LandingSection>
  );
}
