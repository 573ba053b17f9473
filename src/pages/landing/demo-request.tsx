import { Typography } from "antd";
import { LandingSection } from "./section";

export function DemoRequestPage() {
  return (
    <LandingSection title="Request a demo" lead="Run a tuning business? See how the portal handles requests, files and flashing.">
      <Typography.Paragraph>
        Write to <a href="mailto:sales@tuning-portal.example.com">sales@tuning-portal.example.com</a> with your business name, the
        platforms you tune and how many customers you serve, and we will set up a walkthrough with a demo dealer account.
      </Typography.Paragraph>
    </LandingSection>
  );
}
