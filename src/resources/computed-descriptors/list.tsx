import { EmptyState, PageFrame } from "../../components/page-frame";

export function ComputedDescriptorsList() {
  return (
    <PageFrame title="Computed descriptors" subtitle="Derived logging channels">
      <EmptyState title="No computed channels yet">
        Channels computed from others, such as boost from manifold and ambient pressure, written as expressions that are checked when saved and charted with every log.
      </EmptyState>
    </PageFrame>
  );
}
