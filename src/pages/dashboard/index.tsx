import { useCustom } from "@refinedev/core";
import { Card, Col, Descriptions, Row, Tag, Typography } from "antd";
import { Link } from "../../components/link";
import type { Account } from "../../../contracts/account";
import { PageFrame } from "../../components/page-frame";
import { apiRoutes } from "../../../contracts/api-paths";
import { OpenRequests } from "./open-requests";

const shortcuts: { to: string; title: string; text: string; roles?: Account["role"][] }[] = [
  { to: "/my-devices", title: "My vehicles", text: "Connected cars, their ECU and firmware, stock reads and flashes." },
  { to: "/my-tunes", title: "My tunes", text: "Tune files you bought or that were baked for your vehicles." },
  { to: "/tuning-tools/data-logs", title: "Data logs", text: "Upload, chart and share logs from your logger." },
  { to: "/tuning-tools/tune-viewer", title: "Tune viewer", text: "Browse and compare maps of a tune file." },
  { to: "/tuning-requests", title: "Tuning requests", text: "Your customers' custom tune requests.", roles: ["dealer", "admin"] },
  { to: "/admin/firmware-support", title: "Firmware support", text: "The catalogue of supported firmware.", roles: ["admin"] },
];

const roleColour: Record<Account["role"], string> = { customer: "blue", dealer: "gold", admin: "red" };

export function DashboardPage() {
  const { query } = useCustom<Account>({ url: apiRoutes.account.mine(), method: "get" });
  // `result` starts as an empty object; the query data is undefined until the answer arrives.
  const account = query.data?.data;
  return (
    <PageFrame title="Dashboard" subtitle={account ? `Welcome back, ${account.displayName ?? account.email}` : undefined}>
      <Card loading={query.isLoading} title="Your account">
        {account && (
          <Descriptions column={{ xs: 1, md: 3 }} size="small">
            <Descriptions.Item label="Email">{account.email}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <Tag color={roleColour[account.role]} data-testid="account-role">
                {account.role}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Email verified">{account.emailVerified ? "Yes" : "No"}</Descriptions.Item>
            {account.profile.dealer && (
              <Descriptions.Item label="Dealer profile">
                {account.profile.dealer.businessName} <Tag>{account.profile.dealer.status}</Tag>
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Card>
      {account && <OpenRequests uid={account.uid} dealer={account.role === "dealer"} />}
      <Row gutter={[16, 16]}>
        {shortcuts
          .filter((shortcut) => !shortcut.roles || (account && shortcut.roles.includes(account.role)))
          .map((shortcut) => (
            <Col key={shortcut.to} xs={24} md={12} xl={8}>
              <Link to={shortcut.to}>
                <Card hoverable title={shortcut.title}>
                  <Typography.Text type="secondary">{shortcut.text}</Typography.Text>
                </Card>
              </Link>
            </Col>
          ))}
      </Row>
    </PageFrame>
  );
}
