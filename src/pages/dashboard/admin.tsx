/** An admin's dashboard: failed flashes today, applications and onboarding requests waiting, failed jobs, sign-ups. */
import { Card, Col, Row, Table, Tag } from "antd";
import type { AdminDashboard } from "../../../contracts/dashboard";
import { Link } from "../../components/link";
import { listFilterQuery } from "../../lib/list-links";
import { Figure, NothingYet } from "./figure";

const ROLE_COLOURS = { customer: "blue", dealer: "gold", admin: "red" } as const;

export function AdminFigures({ figures }: { figures: AdminDashboard }) {
  const { signUps } = figures;
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title="Failed flashes today"
            value={figures.failedFlashesToday}
            danger={figures.failedFlashesToday > 0}
            to="/admin/flashing-overview"
            testId="figure-failed-flashes"
          />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title="Dealer applications"
            value={figures.pendingDealerApplications}
            to={`/managed-dealers${listFilterQuery("status", "eq", "pending")}`}
            testId="figure-dealer-applications"
          />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title="Onboarding requests"
            value={figures.pendingOnboardingRequests}
            to={`/admin/onboarding-vehicles${listFilterQuery("status", "in", ["new", "investigating"])}`}
            testId="figure-onboarding-requests"
          />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title="Failed jobs"
            value={figures.failedJobs}
            danger={figures.failedJobs > 0}
            to="/admin/server-management"
            testId="figure-failed-jobs"
          />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure title="Sign-ups today" value={signUps.today} to="/admin/users" testId="figure-sign-ups-today" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title="Sign-ups, last 7 days"
            value={signUps.last7Days}
            to="/admin/users"
            testId="figure-sign-ups-week"
          />
        </Col>
      </Row>
      <Card title="Newest accounts" size="small" extra={<Link to="/admin/users">All users</Link>}>
        {signUps.recent.length === 0 ? (
          <NothingYet text="Nobody signed up in the last 7 days." />
        ) : (
          <Table
            aria-label="Newest accounts"
            size="small"
            rowKey="uid"
            pagination={false}
            scroll={{ x: "max-content" }}
            dataSource={signUps.recent}
            columns={[
              {
                dataIndex: "email",
                title: "Account",
                render: (email: string | null, user) => (
                  <Link to={`/admin/users/${encodeURIComponent(user.uid)}`}>
                    {user.displayName ?? email ?? user.uid}
                  </Link>
                ),
              },
              { dataIndex: "email", key: "address", title: "Email", render: (email: string | null) => email ?? "—" },
              {
                dataIndex: "role",
                title: "Role",
                render: (role: keyof typeof ROLE_COLOURS) => <Tag color={ROLE_COLOURS[role]}>{role}</Tag>,
              },
              { dataIndex: "createdAt", title: "Signed up", render: (at: string) => new Date(at).toLocaleString() },
            ]}
          />
        )}
      </Card>
    </>
  );
}
