import { EmptyState, PageFrame } from "../../components/page-frame";

export function FlashingOverviewList() {
  return (
    <PageFrame title="Flashing overview" subtitle="Flash sessions over time">
      <EmptyState title="No flash sessions recorded">
        Every flash the app records (vehicle, firmware, adapter, each UDS step with timings and any negative response) is summarised here: successes and failures over time, by step, response code, adapter and firmware.
      </EmptyState>
    </PageFrame>
  );
}
