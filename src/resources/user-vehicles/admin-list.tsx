import { PageFrame } from "../../components/page-frame";
import { VehicleTable } from "../../components/vehicle/vehicle-table";

/**
 * Every vehicle in the system, for support: paged, sorted and filtered by the server (URL-synced),
 * searchable by VIN, nickname, firmware and owner; each owner leads to their account, and the list
 * narrows to one owner's cars (also linked from the owner's account page).
 */
export function UserDevicesList() {
  return (
    <PageFrame title="User vehicles" subtitle="Every vehicle in the system, with its owner, ECU and firmware">
      <VehicleTable
        view="admin"
        linkTo={(vehicle) => `/my-devices/${vehicle.id}`}
        searchPlaceholder="VIN, nickname, firmware or owner email"
      />
    </PageFrame>
  );
}
