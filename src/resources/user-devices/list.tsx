import { PageFrame } from "../../components/page-frame";
import { VehicleTable } from "../../components/vehicle/vehicle-table";

/** Every connected vehicle, for support: searchable by VIN, nickname, firmware and owner. */
export function UserDevicesList() {
  return (
    <PageFrame title="User vehicles" subtitle="Every connected vehicle">
      <VehicleTable resource="user-devices" linkTo={(vehicle) => `/my-devices/${vehicle.id}`} searchPlaceholder="VIN, nickname, firmware or owner email" />
    </PageFrame>
  );
}
