import { EmptyState, PageFrame } from "../../components/page-frame";

export function DataLogsList() {
  return (
    <PageFrame title="Data logs" subtitle="Upload, chart and share logs from your logger">
      <EmptyState title="No data logs yet">
        Upload a CSV from MHD, bootmod3, COBB Accessport, HP Tuners, RomRaider, OBDLink, JB4, ME7Logger and other loggers, or record one with the app. Each log opens in a full-screen chart with synchronised cursors, and can be shared by link.
      </EmptyState>
    </PageFrame>
  );
}
