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

/** Removes the snapshot and its styles, if the page had one: the app's root, now alone, shows. */
export function releaseSnapshot(document: Pick<Document, "querySelectorAll">): void {
  for (const element of document.querySelectorAll(`.${SNAPSHOT_CLASS}, style[data-${SNAPSHOT_CLASS}]`))
    element.remove();
}
