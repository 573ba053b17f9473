import { useParams } from "react-router";
import { EmptyState, PageFrame } from "../../components/page-frame";

export function DataLogsShow() {
  const { id } = useParams();
  return (
    <PageFrame title="Data log" subtitle={`Data log ${id}`}>
      <EmptyState title="Nothing recorded for this data log yet">
        The chart view of this log: channel picker, stacked or overlaid panes, zoom and pan, statistics over the visible range and a virtual dyno.
      </EmptyState>
    </PageFrame>
  );
}
