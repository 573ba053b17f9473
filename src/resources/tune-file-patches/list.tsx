import { EmptyState, PageFrame } from "../../components/page-frame";

export function TuneFilePatchesList() {
  return (
    <PageFrame title="Tune-file patches" subtitle="Byte patches per firmware">
      <EmptyState title="No patches yet">
        Patches (address, patch bytes, base bytes) for the firmware they apply to: create them from hex or by diffing two images, check compatibility, and apply them with checksums fixed.
      </EmptyState>
    </PageFrame>
  );
}
