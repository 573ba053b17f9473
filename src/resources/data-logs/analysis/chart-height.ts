/**
 * How tall the log chart's panes are: the window's height less what the page shows above and under
 * them, so that the chart and its overview strip fill the screen without the page scrolling to them.
 */

/**
 * On a desktop: the slim header, the toolbar's rows above the chart, the overview strip and the
 * page's padding.
 */
const AROUND_ON_DESKTOP = 48 + 56 + 56 + 48;
/**
 * On a phone, where the toolbar and the panels are in a drawer: the slim header (48), the page's
 * padding (16 above, 16 under), the drawers' buttons (32) and the visible range (22) with the gaps
 * under them (8 each), the chart card's padding (8 above, 8 under) and the overview strip (56).
 */
const AROUND_ON_PHONE = 48 + 16 + 32 + 8 + 22 + 8 + 8 + 56 + 8 + 16;
const LEAST_ON_DESKTOP = 360;
/** A phone held sideways: the panes keep a readable height and the page scrolls a little. */
const LEAST_ON_PHONE = 240;
/** A pane is never shorter than this, however many panes share the chart: the page grows instead. */
const LEAST_PANE = 110;

/** The panes' height together, in CSS pixels, for a window `viewportHeight` tall. */
export function chartHeight(viewportHeight: number, phone: boolean): number {
  return phone
    ? Math.max(LEAST_ON_PHONE, viewportHeight - AROUND_ON_PHONE)
    : Math.max(LEAST_ON_DESKTOP, viewportHeight - AROUND_ON_DESKTOP);
}

/** One pane's height when `panes` share the chart's `height`. */
export function paneHeight(height: number, panes: number): number {
  return Math.max(LEAST_PANE, Math.floor(height / Math.max(1, panes)));
}
