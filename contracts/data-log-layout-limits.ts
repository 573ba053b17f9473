/**
 * The limits of a data log's chart layout, apart from its schemas (./data-log-layouts.ts) so that
 * the log page can use them without loading the schema library.
 */

/** Panes stacked on one time axis: more would leave each too short to read. */
export const MAX_PANES = 8;

/** Channels drawn in one pane: every cylinder of a V16's timing, with room to spare. */
export const MAX_PANE_CHANNELS = 32;

/** Longest name a saved layout keeps ("Boost", "Timing cyl 1-4 + knock"). */
export const LAYOUT_NAME_MAX = 60;
