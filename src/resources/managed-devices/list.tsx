import { EmptyState, PageFrame } from "../../components/page-frame";

export function ManagedDevicesList() {
  return (
    <PageFrame title="Managed vehicles" subtitle="Customer vehicles you manage">
      <EmptyState title="No managed vehicles">
        Vehicles whose owners have given you access appear here, with their firmware, stock read, tunes, logs and flash history.
      </EmptyState>
    </PageFrame>
  );
}
