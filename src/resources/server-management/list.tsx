import { EmptyState, PageFrame } from "../../components/page-frame";

export function ServerManagementList() {
  return (
    <PageFrame title="Server management" subtitle="Background jobs and maintenance">
      <EmptyState title="No background jobs">
        Long-running work such as rebaking every baked tune file after a patch or definition change runs here with its progress and failures.
      </EmptyState>
    </PageFrame>
  );
}
