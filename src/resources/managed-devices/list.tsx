import { EmptyState, PageFrame } from "../../components/page-frame";
import { FullScreenPage } from "../../components/layouts/slim-header";

export function ManagedDevicesList() {
  return (
    <FullScreenPage>
      <PageFrame title="Managed vehicles" subtitle="Customer vehicles you manage">
        <EmptyState title="No managed vehicles">
          Vehicles whose owners have given you access appear here, with their firmware, stock read, tunes, logs and flash history.
        </EmptyState>
      </PageFrame>
    </FullScreenPage>
  );
}
