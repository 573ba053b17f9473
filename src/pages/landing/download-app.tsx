import { AndroidFilled, AppleFilled } from "@ant-design/icons";
import { Alert, Button, Card, Col, Flex, QRCode, Row } from "antd";
import { useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { Paragraph, Text, Title } from "../../components/text";
import { APP_STORE_URL, PLAY_STORE_URL } from "../../lib/app-links";
import { LandingSection } from "./section";

const needs = [
  "An iPhone with iOS 16 or later, or an Android phone with Android 10 or later.",
  "A supported OBD adapter: a Bluetooth LE or Wi-Fi adapter with CAN support, or a wired ENET cable for BMW.",
  "For flashing, a battery charger of at least 20 A connected to the car's battery.",
];

/** Store links, and a QR code that opens the app (or this page) on a phone from a desktop screen. */
export function DownloadAppPage() {
  const [params] = useSearchParams();
  const qrTarget = `${window.location.origin}/redirect-app`;
  return (
    <LandingSection
      title="Get the app"
      lead="The app connects to your car through an OBD adapter to read, flash and log. Sign in with your portal account: your vehicles, tunes and logs are already there."
    >
      {params.get("from") === "redirect" && (
        <Alert
          type="info"
          showIcon
          role="status"
          style={{ marginBottom: 24 }}
          message="The app did not open on this device"
          description="Install it from your store, then open the link again."
        />
      )}
      <Row gutter={[{ xs: 16, md: 32 }, 32]}>
        <Col xs={24} md={14}>
          <Flex gap={12} wrap style={{ marginBottom: 24 }}>
            <Button
              type="primary"
              size="large"
              icon={<AppleFilled />}
              href={APP_STORE_URL}
              target="_blank"
              rel="noreferrer"
            >
              Download on the App Store
            </Button>
            <Button size="large" icon={<AndroidFilled />} href={PLAY_STORE_URL} target="_blank" rel="noreferrer">
              Get it on Google Play
            </Button>
          </Flex>
          <Title level={2} style={{ fontSize: 20 }}>
            What you need
          </Title>
          <ul>
            {needs.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
          <Paragraph>
            Then follow <Link to="/docs/connecting-a-vehicle">connecting a vehicle</Link> and{" "}
            <Link to="/docs/flashing">flashing a tune</Link>.
          </Paragraph>
        </Col>
        <Col xs={24} md={10}>
          <Card>
            <Flex vertical align="center" gap={12}>
              <Title level={2} style={{ fontSize: 18, margin: 0 }}>
                On your computer?
              </Title>
              <QRCode
                value={qrTarget}
                size={192}
                bgColor="#ffffff"
                color="#000000"
                aria-label="QR code that opens the app on your phone"
              />
              <Text type="secondary" style={{ textAlign: "center" }}>
                Scan with your phone's camera: it opens the app, or this page when the app is not installed yet.
              </Text>
            </Flex>
          </Card>
        </Col>
      </Row>
    </LandingSection>
  );
}
