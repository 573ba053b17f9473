/** An admin's dashboard: failed flashes today, applications and onboarding requests waiting, failed jobs, sign-ups. */
import { Col, Row } from "antd";
import type { AdminDashboard } from "../../../contracts/dashboard";
import { listFilterQuery } from "../../lib/list-links";
import { Figure } from "./figure";

export function AdminFigures({ figures }: { figures: AdminDashboard }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={12} md={8} xl={4}>
        <Figure title="Failed flashes today" value={figures.failedFlashesToday} danger={figures.failedFlashesToday > 0} to="/admin/flashing-overview" testId="figure-failed-flashes" />
      </Col>
      <Col xs={12} md={8} xl={4}>
        <Figure title="Dealer applications" value={figures.pendingDealerApplications} to={`/managed-dealers${listFilterQuery("status", "eq", "pending")}`} testId="figure-dealer-applications" />
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
        <Figure title="Failed jobs" value={figures.failedJobs} danger={figures.failedJobs > 0} to="/admin/server-management" testId="figure-failed-jobs" />
      </Col>
      <Col xs={12} md={8} xl={4}>
        <Figure title="Sign-ups today" value={figures.signUps.today} to="/admin/users" testId="figure-sign-ups-today" />
      </Col>
      <Col xs={12} md={8} xl={4}>
        <Figure title="Sign-ups, last 7 days" value={figures.signUps.last7Days} to="/admin/users" testId="figure-sign-ups-week" />
      </Col>
    </Row>
  );
}
