import { EmptyState, PageFrame } from "../../components/page-frame";

export function TuningRequestsList() {
  return (
    <PageFrame title="Tuning requests" subtitle="Custom tune requests from your customers">
      <EmptyState title="The queue is empty">
        When a customer requests a custom tune (vehicle, stock read, modifications, fuel and logs), the request lands here. Work it through its statuses and send revisions back with logs attached.
      </EmptyState>
    </PageFrame>
  );
}
