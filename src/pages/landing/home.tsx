import { Button, Card, Col, Flex, Row, Typography } from "antd";
import { Link } from "../../components/link";

const features = [
  { title: "Flash from your phone", text: "Connect the app to your car through an OBD adapter: it reads the ECU, backs up the stock file and flashes the tune baked for your exact software." },
  { title: "Tunes from trusted dealers", text: "Buy a ready-made tune for your firmware, or request a custom one: send your stock read, modifications and logs, get revisions back." },
  { title: "Logs that chart fast", text: "Upload logs from MHD, bootmod3, COBB, HP Tuners, RomRaider, JB4 and more; chart a million rows, compare pulls and share a link." },
  { title: "Back to stock at any time", text: "Your stock read is kept safe: flashing it back is one tap, and a failed flash can always be recovered." },
];

export function HomePage() {
  return (
    <Flex vertical gap={48}>
      <section style={{ maxWidth: 760 }}>
        <Typography.Title>Tune, flash and log your car with confidence</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 18 }}>
          Tuning Portal brings dealers' tune files, custom tuning requests, flashing and data logging together. Every file is checked
          against your ECU's firmware, every checksum is verified and every flash is recorded.
        </Typography.Paragraph>
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
      <Row gutter={[16, 16]}>
        {features.map((feature) => (
          <Col key={feature.title} xs={24} md={12}>
            <Card title={feature.title} style={{ height: "100%" }}>
              <Typography.Text>{feature.text}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
