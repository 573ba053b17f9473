import {
  ApiOutlined,
  CloudUploadOutlined,
  LineChartOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import { Button, Col, Flex, Row } from "antd";
import { lazy, type ReactNode, Suspense } from "react";
import { useGutter } from "../../components/layouts/snapshot-screen";
import { Link } from "../../components/link";
import { NearView } from "../../components/near-view";
import { Panel } from "../../components/panel";
import { ParagraphSkeleton } from "../../components/paragraph-skeleton";
import { StepList } from "../../components/step-list";
import { Paragraph, Text, Title } from "../../components/text";
import "./prose.css";

// The searchable table (antd's Table, Select and Pagination) is far down the page: its code loads as the reader nears it.
const SupportedVehicles = lazy(() =>
  import("./supported-vehicles").then((module) => ({ default: module.SupportedVehicles })),
);
const tableLoading = <ParagraphSkeleton />;

const features: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <ThunderboltOutlined />,
    title: "Flash from your phone",
    text: "Connect the app to your car through an OBD adapter: it reads the ECU, backs up the stock software and flashes the tune built for your exact software version.",
  },
  {
    icon: <ShopOutlined />,
    title: "Tunes from trusted dealers",
    text: "Buy a ready-made tune for your firmware, or request a custom one: send your stock read, modifications and logs, and get revisions back.",
  },
  {
    icon: <LineChartOutlined />,
    title: "Logs that chart fast",
    text: "Upload logs from MHD, bootmod3, COBB, HP Tuners, RomRaider, JB4 and more; chart a million rows, compare pulls and share a link.",
  },
  {
    icon: <SafetyCertificateOutlined />,
    title: "Back to stock at any time",
    text: "Your stock read is kept safe: flashing it back is one tap, and an interrupted flash can always be recovered.",
  },
];

const steps = [
  {
    title: "Connect",
    description:
      "Plug a supported OBD adapter into the car, open the app and sign in. The app reads the ECU's identity and software version.",
  },
  {
    title: "Back up",
    description: "Before the first flash the app reads the stock software and stores it in your account.",
  },
  {
    title: "Choose a tune",
    description: "Pick a tune made for that software version, or request a custom tune from a dealer.",
  },
  {
    title: "Flash",
    description:
      "With a battery charger connected and the ignition on, the app writes the tune, checking every block and checksum.",
  },
  {
    title: "Log and refine",
    description: "Record a data log, upload it, and share it with your dealer for the next revision.",
  },
];

export function HomePage() {
  const gutter = useGutter([{ xs: 16, md: 32 }, 16]);
  return (
    <Flex vertical gap={56} className="prose">
      <section style={{ maxWidth: 780 }} aria-labelledby="home-title">
        <Title id="home-title">Tune, flash and log your car with confidence</Title>
        <Paragraph style={{ fontSize: 18 }}>
          Tuning Portal brings dealers' tune files, custom tuning requests, flashing and data logging together. Every
          file is checked against your ECU's software, every checksum is verified and every flash is recorded.
        </Paragraph>
        <Flex gap={12} wrap>
          <Link to="/create-account">
            <Button type="primary" size="large">
              Create a free account
            </Button>
          </Link>
          <Link to="/download-app">
            <Button size="large">Get the app</Button>
          </Link>
        </Flex>
      </section>

      <section aria-label="What the portal does">
        <Row gutter={[16, 16]}>
          {features.map((feature) => (
            <Col key={feature.title} xs={24} md={12} xl={6}>
              <Panel style={{ height: "100%" }}>
                <Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
                  <span aria-hidden style={{ marginRight: 8 }}>
                    {feature.icon}
                  </span>
                  {feature.title}
                </Title>
                <Text>{feature.text}</Text>
              </Panel>
            </Col>
          ))}
        </Row>
      </section>

      <section aria-labelledby="how-title">
        <Title level={2} id="how-title">
          How flashing with the app works
        </Title>
        <StepList items={steps} />
        <Paragraph>
          The <Link to="/docs/flashing">flashing guide</Link> covers preparation, what the app checks and how recovery
          works.
        </Paragraph>
      </section>

      <section aria-labelledby="vehicles-title">
        <Title level={2} id="vehicles-title">
          Supported vehicles
        </Title>
        <NearView placeholder={tableLoading}>
          <Suspense fallback={tableLoading}>
            <SupportedVehicles />
          </Suspense>
        </NearView>
      </section>

      <section aria-labelledby="dealers-title">
        <Row gutter={gutter} align="middle">
          <Col xs={24} md={16}>
            <Title level={2} id="dealers-title">
              <ApiOutlined aria-hidden style={{ marginRight: 8 }} />
              For dealers and tuners
            </Title>
            <Paragraph>
              Publish your tunes per ECU software with your own prices, protected against copying; work your customers'
              custom requests with their stock reads and logs attached; see every flash log when a customer calls.
            </Paragraph>
          </Col>
          <Col xs={24} md={8}>
            <Flex gap={12} wrap>
              <Link to="/dealer-account-request">
                <Button type="primary">Become a dealer</Button>
              </Link>
              <Link to="/demo-request">
                <Button>Request a demo</Button>
              </Link>
            </Flex>
          </Col>
        </Row>
      </section>

      <section aria-labelledby="safety-title">
        <Title level={2} id="safety-title">
          <CloudUploadOutlined aria-hidden style={{ marginRight: 8 }} />
          Safety and the law
        </Title>
        <Paragraph>
          Modified engine software changes how your vehicle behaves and may affect emissions compliance, road legality,
          insurance and warranty. Many tunes are meant for off-road or competition use only: check the rules where you
          drive. Flash with a stable power supply and never interrupt a flash. Read our{" "}
          <Link to="/legal/terms">terms</Link> before you buy.
        </Paragraph>
      </section>
    </Flex>
  );
}
