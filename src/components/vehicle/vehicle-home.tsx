/**
 * The vehicle home, shared by the owner's page (/my-devices/:id) and a dealer's
 * (/managed-devices/:deviceId): identity and support, the flash flow and the owner's fields for
 * the owner, the licences and the storefront, the car's custom tunes (tuning requests), the
 * history for everyone who may see the car.
 * Live flash and order events refresh the lists; a session's end also refreshes the car and its licences.
 */
import { useInvalidate, useOne } from "@refinedev/core";
import { Alert, Col, Flex, Row, Skeleton } from "antd";
import { useEffect, useMemo } from "react";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { useSessionState } from "../../providers/session-context";
import { useVehicleEvents } from "../../providers/vehicle-events";
import { PageFrame } from "../page-frame";
import { useRecordMissing } from "../record-not-found";
import { CustomTunes } from "./custom-tunes";
import { FlashFlow } from "./flash-flow";
import { DeviceAttributes, OwnerFields } from "./owner-fields";
import { TuneStore } from "./tune-store";
import { VehicleHistory } from "./vehicle-history";
import { SupportNotice, VehicleSummary } from "./vehicle-summary";

export function VehicleHome({ vehicleId }: { vehicleId: string }) {
  const { result: vehicle, query } = useOne<Vehicle>({
    resource: "user-vehicles",
    id: vehicleId,
    errorNotification: false,
  });
  const missing = useRecordMissing(query.error);
  const progress = useVehicleEvents(vehicleId);
  const { user } = useSessionState();
  const invalidate = useInvalidate();
  // A flash or recovery that ended changed what is on the car, its last flash and its licences.
  useEffect(() => {
    if (progress.endedVersion > 0)
      void invalidate({ resource: "user-vehicles", id: vehicleId, invalidates: ["detail", "list"] });
  }, [progress.endedVersion, vehicleId]);
  // Every change the stream reports makes the lists read again.
  const version = useMemo(
    () =>
      Object.values(progress.logs).reduce(
        (n, log) => n + log.lastReportAt.length + (log.result === "running" ? 0 : 1),
        0,
      ),
    [progress.logs],
  );
  if (missing) return null;
  if (query.isLoading) return <Skeleton active />;
  if (query.isError || !vehicle)
    return <Alert type="error" showIcon message="Could not load the vehicle" description={query.error?.message} />;
  const owner = vehicle.ownerUid === user?.uid;
  return (
    <PageFrame title={vehicle.name} subtitle={vehicle.vin ?? "VIN not read yet"}>
      <Flex vertical gap={16}>
        <SupportNotice vehicle={vehicle} />
        <VehicleSummary vehicle={vehicle} />
        {owner && <FlashFlow vehicle={vehicle} progress={progress} />}
        <TuneStore vehicle={vehicle} licenceVersion={progress.orderVersion + progress.endedVersion} />
        <CustomTunes vehicle={vehicle} owner={owner} />
        <VehicleHistory vehicleId={vehicle.id} version={version} />
        {owner && (
          <Row gutter={16}>
            <Col xs={24} lg={14}>
              <OwnerFields vehicle={vehicle} />
            </Col>
            <Col xs={24} lg={10}>
              <DeviceAttributes vehicle={vehicle} />
            </Col>
          </Row>
        )}
      </Flex>
    </PageFrame>
  );
}
