/**
 * Default English labels of the shared UI ("Close", "No data", "No matching data", …). Components read them from here so one word reads the same everywhere.
 *
 * For antd, the shell's ConfigProvider shows `emptyLabel` through `renderEmpty`
 * (src/components/empty-state.tsx):
 *   <ConfigProvider renderEmpty={(name) => <EmptyState componentName={name} />}>
 */

export const labels = {
  close: "Close",
  noData: "No data",
  noMatchingData: "No matching data",
  notification: "Notification",
  undo: "Undo",
  undoAltText: "Undo the last change",
  dialogError: (error: string) => `An error occurred: ${error}`,
  colourMode: "Colour mode",
  colourModes: { system: "System", light: "Light", dark: "Dark" },
} as const;

/** The browser tab's title for a page: "<page> · Tuning Portal", or the product alone for a page without a label. */
export const documentTitle = (page: string | undefined): string => (page ? `${page} · Tuning Portal` : "Tuning Portal");

/**
 * Components whose empty state is a search or filter result: their list is empty because
 * nothing matched what was typed, not because there is no data at all.
 */
const FILTERED_COMPONENTS = new Set(["Select", "TreeSelect", "Cascader", "AutoComplete", "Mentions", "Transfer"]);

/** The empty-state text for an antd component name as passed to `renderEmpty`. */
export function emptyLabel(componentName?: string): string {
  return componentName !== undefined && FILTERED_COMPONENTS.has(componentName) ? labels.noMatchingData : labels.noData;
}
