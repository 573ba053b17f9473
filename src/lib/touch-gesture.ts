/**
 * A time axis moved by fingers: one finger drags the range along, two pinch it, the time under
 * their midpoint following the midpoint. Pure: positions in pixels from the plot's left edge.
 */
export type Range = readonly [number, number];

export interface GestureStart {
  /** Each finger's position when the gesture (or its latest change of fingers) began. */
  fingers: ReadonlyMap<number, number>;
  range: Range;
}

/** Two fingers closer than this are taken as this far apart, so a pinch never divides by nothing. */
const MIN_SPREAD = 8;

/** The range the fingers now ask for; the start's range while no finger of it is still down. */
export function rangeOfGesture(start: GestureStart, fingers: ReadonlyMap<number, number>, width: number): Range {
  const ids = [...start.fingers.keys()].filter((id) => fingers.has(id));
  const [t0, t1] = start.range;
  const span = t1 - t0;
  if (ids.length === 0 || width <= 0) return start.range;
  const timeAt = (x: number) => t0 + (x / width) * span;
  if (ids.length === 1) {
    const shift = ((start.fingers.get(ids[0])! - fingers.get(ids[0])!) / width) * span;
    return [t0 + shift, t1 + shift];
  }
  const [a, b] = ids;
  const before = { mid: (start.fingers.get(a)! + start.fingers.get(b)!) / 2, spread: spread(start.fingers, a, b) };
  const now = { mid: (fingers.get(a)! + fingers.get(b)!) / 2, spread: spread(fingers, a, b) };
  const pinned = timeAt(before.mid);
  const nextSpan = span * (before.spread / now.spread);
  const from = pinned - (now.mid / width) * nextSpan;
  return [from, from + nextSpan];
}

const spread = (fingers: ReadonlyMap<number, number>, a: number, b: number) =>
  Math.max(MIN_SPREAD, Math.abs(fingers.get(a)! - fingers.get(b)!));
