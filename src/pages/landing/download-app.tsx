import { Typography } from "antd";
import { LandingSection } from "./section";

export function DownloadAppPage() {
  return (
    <LandingSection title="Get the app" lead="The app connects to your car through an OBD adapter to read, flash and log.">
      <Typography.Paragraph>
        Install Tuning Portal from the App Store or Google Play, sign in with your portal account and plug in your adapter. The app
        identifies the ECU, backs up the stock software and shows the tunes available for it.
      </Typography.Paragraph>
    </LandingSection>
  );
}
