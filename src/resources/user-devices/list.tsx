import { EmptyState, PageFrame } from "../../components/page-frame";

export function UserDevicesList() {
  return (
    <PageFrame title="User vehicles" subtitle="Every connected vehicle">
      <EmptyState title="No vehicles connected">
        All vehicles connected by users, with VIN, ECU, firmware, owner and the dealers who manage them.
      </EmptyState>
    </PageFrame>
  );
}
