/**
 * The markers a logger wrote into the file (VCDS's marker column, MegaLogViewer's marks), as the
 * parser keeps them in `meta.extra.markers`: "label @ 12.340 s; label @ …", seconds from the
 * log's start (see readEvents in ./parse.ts and the binary readers).
 */
export interface FileMarker {
  label: string;
  seconds: number;
}

const ENTRY = /^(.*?)\s*@\s*(-?\d+(?:\.\d+)?)\s*s$/;

/** The file's markers in the order written; an entry not in that form is left out. */
export function fileMarkersOf(extra: Readonly<Record<string, unknown>> | undefined): FileMarker[] {
  const text = extra?.markers;
  if (typeof text !== "string" || text.trim() === "") return [];
  return text.split("; ").flatMap((entry) => {
    const match = ENTRY.exec(entry.trim());
    if (!match) return [];
    const seconds = Number(match[2]);
    return Number.isFinite(seconds) ? [{ label: match[1] || "Marker", seconds }] : [];
  });
}
