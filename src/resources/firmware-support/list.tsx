import { EmptyState, PageFrame } from "../../components/page-frame";

export function FirmwareSupportList() {
  return (
    <PageFrame title="Firmware support" subtitle="Firmware versions and what each supports">
      <EmptyState title="No firmware records yet">
        One record per ECU software version: identify rules, flash blocks, checksum schemes, flashing profile, map definition, stock file and bootloader, with a matrix of the gaps.
      </EmptyState>
    </PageFrame>
  );
}
