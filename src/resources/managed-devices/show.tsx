import { useParams } from "react-router";
import { EmptyState, PageFrame } from "../../components/page-frame";

export function ManagedDevicesShow() {
  const { deviceId } = useParams();
  return (
    <PageFrame title="Managed vehicle" subtitle={`Managed vehicle ${deviceId}`}>
      <EmptyState title="Nothing recorded for this managed vehicle yet">
        The vehicle's identity, stock read, the tunes you prepared for it, its logs and its flash history.
      </EmptyState>
    </PageFrame>
  );
}
