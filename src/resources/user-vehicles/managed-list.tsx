import { FullScreenPage } from "../../components/layouts/slim-header";
import { PageFrame } from "../../components/page-frame";
import { VehicleTable } from "../../components/vehicle/vehicle-table";

/** The cars a dealer manages: their owners bought or were granted one of the dealer's tunes. */
export function ManagedDevicesList() {
  return (
    <FullScreenPage>
      <PageFrame title="Managed vehicles" subtitle="Customer vehicles running your tunes">
        <VehicleTable
          view="managed"
          linkTo={(vehicle) => `/managed-devices/${vehicle.id}`}
          searchPlaceholder="VIN, nickname or owner"
        />
      </PageFrame>
    </FullScreenPage>
  );
}
