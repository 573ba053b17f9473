/** A customer's dashboard: their cars, last flash, licences, open custom tunes, recent logs and unread notifications. */
import { Card, Col, Row, Space, Table, Typography } from "antd";
import type { CustomerDashboard } from "../../../contracts/dashboard";
import { Link } from "../../components/link";
import { StateTag } from "../../components/tuning-requests/state-tag";
import { FlashResultTag } from "../../components/vehicle/flash-result-tag";
import { Figure, ListCard, NothingYet } from "./figure";

const when = (iso: string) => new Date(iso).toLocaleString();

export function CustomerFigures({ figures }: { figures: CustomerDashboard }) {
  const { vehicles, lastFlash, licences, openRequests, dataLogs, unreadNotifications } = figures;
  const requestLink = (request: CustomerDashboard["openRequests"]["items"][number]) =>
    request.vehicleId ? `/my-devices/${request.vehicleId}?request=${request.id}` : "/my-devices";
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <Figure title="Vehicles" value={vehicles.total} to="/my-devices" testId="figure-vehicles" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <Figure
            title="Licences"
            value={licences.total}
            suffix={
              licences.total > 0 ? (
                <Typography.Text type="secondary">({licences.unused} not flashed)</Typography.Text>
              ) : undefined
            }
            to="/my-tunes"
            testId="figure-licences"
          />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <Figure
            title="Open tuning requests"
            value={openRequests.total}
            to={openRequests.items[0] ? requestLink(openRequests.items[0]) : "/my-devices"}
            testId="figure-open-requests"
          />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <Figure title="Data logs" value={dataLogs.total} to="/tuning-tools/data-logs" testId="figure-data-logs" />
        </Col>
        <Col xs={12} md={8} xl={5}>
          <Figure
            title="Unread notifications"
            value={unreadNotifications}
            to="/notifications"
            testId="figure-unread-notifications"
          />
        </Col>
      </Row>
      <Card title="Last flash" size="small">
        {lastFlash ? (
          <Space wrap data-testid="last-flash">
            <Link to={`/my-devices/${lastFlash.vehicleId}`}>{lastFlash.vehicleName}</Link>
            <FlashResultTag result={lastFlash.result} />
            <Typography.Text>
              {lastFlash.kind === "stock" ? "Back to stock" : (lastFlash.tuneTitle ?? "Tune")}
            </Typography.Text>
            <Typography.Text type="secondary">{when(lastFlash.at)}</Typography.Text>
          </Space>
        ) : (
          <NothingYet text="No flash yet: flash a tune from the phone app." />
        )}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            title={`Your vehicles (${vehicles.total})`}
            size="small"
            extra={<Link to="/my-devices">All vehicles</Link>}
          >
            {vehicles.total === 0 ? (
              <NothingYet text="No vehicle yet: connect your car with the phone app." />
            ) : (
              <Table
                aria-label="Your vehicles"
                scroll={{ x: "max-content" }}
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={vehicles.items}
                columns={[
                  {
                    dataIndex: "name",
                    title: "Vehicle",
                    render: (name: string, vehicle) => <Link to={`/my-devices/${vehicle.id}`}>{name}</Link>,
                  },
                  { dataIndex: "vin", title: "VIN", render: (vin: string | null) => vin ?? "—" },
                  {
                    dataIndex: "firmwareId",
                    title: "Firmware",
                    render: (firmware: string | null) => firmware ?? "unknown",
                  },
                ]}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <ListCard
            title={`Open tuning requests (${openRequests.total})`}
            items={openRequests.items}
            empty="No open request: ask a dealer for a custom tune from your car's page."
            renderItem={(request) => (
              <Space wrap>
                <Link to={requestLink(request)}>{request.reference}</Link>
                <Typography.Text>{request.vehicleName}</Typography.Text>
                <StateTag state={request.state} />
              </Space>
            )}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ListCard
            title="Recent data logs"
            extra={<Link to="/tuning-tools/data-logs">All logs ({dataLogs.total})</Link>}
            items={dataLogs.recent}
            empty="No data log yet: upload one from your logger."
            renderItem={(log) => (
              <>
                <Link to={`/tuning-tools/data-logs/${log.id}`}>{log.title}</Link>
                <Typography.Text type="secondary">{when(log.createdAt)}</Typography.Text>
              </>
            )}
          />
        </Col>
      </Row>
    </>
  );
}
