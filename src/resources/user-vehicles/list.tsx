/** The customer's cars as cards: support, what is on the car, the last flash and the last connect. */
import { useList } from "@refinedev/core";
import { Alert, Card, Col, Descriptions, Row, Skeleton } from "antd";
import type { FlashResult } from "../../../contracts/flash-logs";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { Link } from "../../components/link";
import { EmptyState, PageFrame } from "../../components/page-frame";
import { FlashResultTag } from "../../components/vehicle/flash-result-tag";
import { SupportTag } from "../../components/vehicle/vehicle-summary";

function VehicleCard({ vehicle }: { vehicle: Vehicle }) {
  return (
    <Card
      title={<Link to={`/my-devices/${vehicle.id}`}>{vehicle.name}</Link>}
      extra={<SupportTag vehicle={vehicle} />}
      data-testid={`vehicle-card-${vehicle.id}`}
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="VIN">{vehicle.vin ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="On the car">
          {vehicle.currentTune
            ? vehicle.currentTune.kind === "stock"
              ? "stock"
              : `${vehicle.currentTune.title ?? "a supplied image"}${vehicle.currentTune.version ? ` v${vehicle.currentTune.version}` : ""}`
            : "as delivered"}
        </Descriptions.Item>
        <Descriptions.Item label="Last flash">
          {vehicle.lastFlash ? (
            <>
              <FlashResultTag result={vehicle.lastFlash.result as FlashResult} />{" "}
              {new Date(vehicle.lastFlash.at).toLocaleDateString()}
            </>
          ) : (
            "none"
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Battery">
          {vehicle.lastBatteryVolts !== null ? `${vehicle.lastBatteryVolts.toFixed(1)} V` : "—"}
        </Descriptions.Item>
        <Descriptions.Item label="Last connected">
          {vehicle.lastConnectedAt ? new Date(vehicle.lastConnectedAt).toLocaleString() : "never"}
        </Descriptions.Item>
        {vehicle.support.state === "unsupported" && (
          <Descriptions.Item label="Support">
            <Link to="/vehicle-support">
              {vehicle.support.supportRequestId ? "Follow your support request" : "Ask for support"}
            </Link>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}

export function MyDeviceList() {
  const { result, query } = useList<Vehicle>({
    resource: "user-vehicles",
    pagination: { pageSize: 100 },
    sorters: [{ field: "name", order: "asc" }],
  });
  return (
    <PageFrame title="My vehicles" subtitle="Cars you have connected with the app">
      {query.isLoading ? (
        <Skeleton active />
      ) : query.isError ? (
        <Alert type="error" showIcon message="Could not load your vehicles" description={query.error?.message} />
      ) : result.data.length === 0 ? (
        <EmptyState title="No vehicles connected yet">
          Connect your car with the mobile app and an OBD adapter: it reads the VIN, ECU and firmware, and the vehicle
          appears here with its stock read, the tunes you own for it and every flash.
        </EmptyState>
      ) : (
        <Row gutter={[16, 16]}>
          {result.data.map((vehicle) => (
            <Col key={vehicle.id} xs={24} md={12} xl={8}>
              <VehicleCard vehicle={vehicle} />
            </Col>
          ))}
        </Row>
      )}
    </PageFrame>
  );
}
