import { EmptyState, PageFrame } from "../../components/page-frame";

export function ObdFunctionsList() {
  return (
    <PageFrame title="OBD functions" subtitle="Diagnostic functions the app can run">
      <EmptyState title="No OBD functions defined">
        Read and clear codes, reset adaptations and service functions: the request bytes, the expected response, the firmware they apply to, a confirmation text and a safety level.
      </EmptyState>
    </PageFrame>
  );
}
