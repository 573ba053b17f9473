/**
 * What an empty table, list or select shows (antd's Empty with the app's wording, given to
 * ConfigProvider's `renderEmpty`). Only those components ever show it, and none is on a first
 * load's critical path: Empty's code (with its illustrations) loads the first time one is empty.
 */
import { lazy, Suspense } from "react";
import { emptyLabel } from "../lib/labels";

const Empty = lazy(() => import("antd/es/empty"));

export function EmptyState({ componentName }: { componentName?: string }) {
  return (
    <Suspense fallback={null}>
      <Empty description={emptyLabel(componentName)} />
    </Suspense>
  );
}
