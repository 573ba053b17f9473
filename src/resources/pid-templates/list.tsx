import { EmptyState, PageFrame } from "../../components/page-frame";

export function PidTemplatesList() {
  return (
    <PageFrame title="PID templates" subtitle="Logging channels and templates">
      <EmptyState title="No PID descriptors yet">
        PID descriptors (OBD mode 01, UDS 0x22 and RAM 0x3E channels with their scaling) and templates (ordered channels with a sample rate per firmware), importable from VW_Flash and Torque CSV files.
      </EmptyState>
    </PageFrame>
  );
}
