/**
 * The build's snapshots of public pages (scripts/lib/prerender.ts): the page rendered into its HTML,
 * shown until the app's own render of the page is ready. Until then the app renders into its root
 * unseen, laid over the snapshot; `releaseSnapshot` removes the snapshot and its styles in one step.
 *
 * The snapshot is for reading only (inert, hidden from assistive technology): what a visitor can
 * use is the app's page, which replaces it a moment later. It is rendered in the light mode: a
 * visitor in the dark mode sees the app's page only, as without a snapshot, never a white flash.
 */

export const SNAPSHOT_CLASS = "page-snapshot";

/** The snapshot shows in the light mode only (public/colour-mode.js marks the mode before the body), and the app's root waits unseen under it. */
export const SNAPSHOT_STYLE = [
  `html.dark .${SNAPSHOT_CLASS} { display: none }`,
  // One snapshot per screen: narrow below antd's md breakpoint (768 px), where the landing's links move into a drawer.
  `@media (min-width: 768px) { .${SNAPSHOT_CLASS}-narrow { display: none } }`,
  `@media (max-width: 767.98px) { .${SNAPSHOT_CLASS}-wide { display: none } }`,
  `html:not(.dark) .${SNAPSHOT_CLASS} ~ #root { position: absolute; top: 0; left: 0; right: 0; visibility: hidden; pointer-events: none }`,
].join("\n");

/** Removes the snapshot and its styles, if the page had one: the app's root, now alone, shows. */
export function releaseSnapshot(document: Pick<Document, "querySelectorAll">): void {
  for (const element of document.querySelectorAll(`.${SNAPSHOT_CLASS}, style[data-${SNAPSHOT_CLASS}]`)) element.remove();
}
