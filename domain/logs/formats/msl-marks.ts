/**
 * MegaLogViewer's marks: lines "MARK nnn" among a text log's rows, written when the user pressed
 * the marker key while logging. The row reader skips them (they have no time); these are read
 * apart, each at the time of the row before it, so they are kept as the log's markers.
 */
const M = 77;
const A = 65;
const R = 82;
const K = 75;
const TAB = 9;
const LF = 10;
const CR = 13;

/** The time cell (the first) of the line that ends just before `end`, or NaN. */
function timeBefore(bytes: Uint8Array, end: number, from: number): number {
  let stop = end;
  while (stop > from && (bytes[stop - 1] === LF || bytes[stop - 1] === CR)) stop--;
  let start = stop;
  while (start > from && bytes[start - 1] !== LF && bytes[start - 1] !== CR) start--;
  let cell = "";
  for (let i = start; i < stop && bytes[i] !== TAB; i++) cell += String.fromCharCode(bytes[i]);
  return cell.trim() === "" ? Number.NaN : Number(cell);
}

/** The label after "MARK" up to the line's end. */
function labelAt(bytes: Uint8Array, at: number): string {
  let label = "";
  for (let i = at; i < bytes.length && bytes[i] !== LF && bytes[i] !== CR; i++) label += String.fromCharCode(bytes[i]);
  return label.trim();
}

/**
 * The marks of the rows from byte `from` on, as `meta.extra.markers` holds events ("label @
 * 12.340 s; …", seconds after `firstTime`); undefined when there are none.
 */
export function readMslMarks(bytes: Uint8Array, from: number, firstTime: number): string | undefined {
  const events: string[] = [];
  for (let i = from; i + 4 <= bytes.length; i++) {
    if (i > from && bytes[i - 1] !== LF && bytes[i - 1] !== CR) continue;
    if (bytes[i] !== M || bytes[i + 1] !== A || bytes[i + 2] !== R || bytes[i + 3] !== K) continue;
    const time = timeBefore(bytes, i, from);
    const at = Number.isFinite(time) ? time - firstTime : 0;
    events.push(`${labelAt(bytes, i + 4) || "MARK"} @ ${Math.max(0, at).toFixed(3)} s`);
  }
  return events.length ? events.join("; ") : undefined;
}
