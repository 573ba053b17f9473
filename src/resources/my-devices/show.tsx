import { useParams } from "react-router";
import { PageFrame, EmptyState } from "../../components/page-frame";

export function MyDeviceShow() {
  const { id } = useParams();
  return (
    <PageFrame title="Vehicle" subtitle={`Vehicle ${id}`}>
      <EmptyState title="Vehicle details">
        This vehicle's VIN, ECU identity, firmware, stock read, purchased and baked tunes, snapshots and flash logs are shown here
        once the app has connected it.
      </EmptyState>
    </PageFrame>
  );
}
