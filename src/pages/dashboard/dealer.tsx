/** A dealer's dashboard: the request queue by state (the late ones first), this month's sales, managed cars and published tunes. */
import { Card, Col, Row, Space, Statistic } from "antd";
import type { DealerDashboard } from "../../../contracts/dashboard";
import { Link } from "../../components/link";
import { STATE_LABELS } from "../../components/tuning-requests/state-tag";
import { formatMoney } from "../../lib/money";
import { Figure, NothingYet } from "./figure";

export function DealerFigures({ figures }: { figures: DealerDashboard }) {
  const { queue, late, sales, managedVehicles, tunesPublished } = figures;
  const waiting = queue.reduce((sum, entry) => sum + entry.count, 0);
  const month = new Date(sales.since).toLocaleDateString(undefined, {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8}>
          <Figure title="Open tuning requests" value={waiting} to="/tuning-requests" testId="figure-queue" />
        </Col>
        <Col xs={12} md={8}>
          <Figure
            title="Managed vehicles"
            value={managedVehicles}
            to="/managed-devices"
            testId="figure-managed-vehicles"
          />
        </Col>
        <Col xs={12} md={8}>
          <Figure title="Tunes published" value={tunesPublished} to="/my-tunes" testId="figure-tunes-published" />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title="Queue by state" size="small" extra={<Link to="/tuning-requests">The queue</Link>}>
            {queue.length === 0 ? (
              <NothingYet text="No open request: nothing waits on you." />
            ) : (
              <Row gutter={[16, 16]} aria-label="Queue by state">
                {late > 0 && (
                  <Col xs={12} md={8}>
                    <Figure title="Late" value={late} to="/tuning-requests?state=late" testId="figure-queue-late" />
                  </Col>
                )}
                {queue.map((entry) => (
                  <Col key={entry.state} xs={12} md={8}>
                    <Figure
                      title={STATE_LABELS[entry.state]}
                      value={entry.count}
                      to={`/tuning-requests?state=${entry.state}`}
                      testId={`figure-queue-${entry.state}`}
                    />
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            title={`Sales in ${month}`}
            size="small"
            extra={<Link to="/my-tunes?tab=transactions">Sales and payments</Link>}
          >
            {sales.byCurrency.length === 0 ? (
              <NothingYet text="No sale yet this month." />
            ) : (
              <Space size="large" wrap aria-label="Sales this month">
                {sales.byCurrency.map((entry) => (
                  <Link
                    key={entry.currency}
                    to="/my-tunes?tab=transactions"
                    data-testid={`figure-sales-${entry.currency}`}
                  >
                    <Statistic
                      title={`${entry.count} ${entry.count === 1 ? "sale" : "sales"} in ${entry.currency}`}
                      value={formatMoney(entry.amountCents, entry.currency)}
                    />
                  </Link>
                ))}
              </Space>
            )}
          </Card>
        </Col>
      </Row>
    </>
  );
}
