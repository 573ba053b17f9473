/** Who the car is: what the app read from it, what the catalogue says of it, what is on it now. */
import { Alert, Card, Descriptions, Tag, Typography } from "antd";
import type { FlashResult } from "../../../contracts/flash-logs";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { catalogueCarText } from "../../lib/catalogue-car";
import { Link } from "../link";
import { FlashResultTag } from "./flash-result-tag";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function SupportTag({ vehicle }: { vehicle: Vehicle }) {
  if (vehicle.support.state === "unsupported") return <Tag color="orange">unsupported</Tag>;
  return vehicle.support.flashing ? (
    <Tag color="green">supported</Tag>
  ) : (
    <Tag color="gold">supported, no flashing yet</Tag>
  );
}

/** An unsupported car: why, and the way to ask for support (or the request already made). */
export function SupportNotice({ vehicle }: { vehicle: Vehicle }) {
  if (vehicle.support.state === "supported") return null;
  return (
    <Alert
      type="warning"
      showIcon
      message="This car is not supported yet"
      description={
        <>
          {vehicle.support.reason}.{" "}
          {vehicle.support.supportRequestId ? (
            <Link to="/vehicle-support">Follow your support request</Link>
          ) : (
            <Link to="/vehicle-support">Ask for support</Link>
          )}
        </>
      }
    />
  );
}

export function VehicleSummary({ vehicle }: { vehicle: Vehicle }) {
  return (
    <Card title="Vehicle">
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} aria-label="Vehicle identity">
        <Descriptions.Item label="Car">
          <span data-testid="catalogue-car">{catalogueCarText(vehicle.catalogue)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="VIN">{vehicle.vin ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Support">
          <SupportTag vehicle={vehicle} />
        </Descriptions.Item>
        <Descriptions.Item label="Firmware">{vehicle.firmwareId ?? "unknown"}</Descriptions.Item>
        {/* The ECU's software id names the firmware when the catalogue knows it: one line, not the same value twice. */}
        {vehicle.ecu.softwareId !== vehicle.firmwareId && (
          <Descriptions.Item label="ECU software">{vehicle.ecu.softwareId ?? "—"}</Descriptions.Item>
        )}
        <Descriptions.Item label="ECU serial">{vehicle.ecu.ecuSerial ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Hardware">{vehicle.ecu.hardwareNumber ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Bootloader">{vehicle.ecu.bootloaderVersion ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="ECU family">{vehicle.support.ecuFamily ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Stock read">
          {vehicle.stockDump ? (
            `${vehicle.stockDump.size.toLocaleString()} bytes`
          ) : (
            <Typography.Text type="warning">none yet</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="On the car">
          <span data-testid="on-the-car">
            {vehicle.currentTune
              ? vehicle.currentTune.kind === "stock"
                ? "stock"
                : `${vehicle.currentTune.title ?? "a supplied image"}${vehicle.currentTune.version ? ` v${vehicle.currentTune.version}` : ""}`
              : "as delivered"}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="Last flash">
          {vehicle.lastFlash ? (
            <>
              <FlashResultTag result={vehicle.lastFlash.result as FlashResult} /> {when(vehicle.lastFlash.at)}
            </>
          ) : (
            "none"
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Last connected">{when(vehicle.lastConnectedAt)}</Descriptions.Item>
        <Descriptions.Item label="Battery at last connect">
          {vehicle.lastBatteryVolts !== null ? `${vehicle.lastBatteryVolts.toFixed(1)} V` : "—"}
        </Descriptions.Item>
        {vehicle.ownerEmail !== null && (
          <Descriptions.Item label="Owner">{vehicle.ownerName ?? vehicle.ownerEmail}</Descriptions.Item>
        )}
        {vehicle.ownerEmail === null && vehicle.ownerName && (
          <Descriptions.Item label="Owner">{vehicle.ownerName}</Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}
