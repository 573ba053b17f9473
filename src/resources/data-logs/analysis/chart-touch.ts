/**
 * Fingers on a pane of the log chart: a drag moves the range along, a pinch zooms about the
 * fingers' midpoint, a tap puts the cursor under the finger. A vertical swipe still scrolls the
 * page (`touch-action: pan-y`), so a phone's page stays reachable below the chart.
 */
import { type GestureStart, type Range, rangeOfGesture } from "../../../lib/touch-gesture";

export interface TouchHandlers {
  getRange: () => Range;
  onRange: (range: [number, number]) => void;
  /** A tap at `x` pixels from the pane's left edge. */
  onTap: (x: number) => void;
}

/** A finger that moves less than this between down and up taps. */
const TAP_PIXELS = 6;

export function followFingers(over: HTMLElement, handlers: TouchHandlers): void {
  over.style.touchAction = "pan-y";
  const fingers = new Map<number, number>();
  let start: GestureStart | null = null;
  let downAt = 0;
  let moved = false;
  const xOf = (event: PointerEvent) => event.clientX - over.getBoundingClientRect().left;
  const restart = () => {
    start = fingers.size ? { fingers: new Map(fingers), range: handlers.getRange() } : null;
  };

  over.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    over.setPointerCapture(event.pointerId);
    fingers.set(event.pointerId, xOf(event));
    if (fingers.size === 1) {
      downAt = xOf(event);
      moved = false;
    } else moved = true;
    restart();
  });
  over.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "touch" || !fingers.has(event.pointerId) || !start) return;
    fingers.set(event.pointerId, xOf(event));
    if (!moved && Math.abs(xOf(event) - downAt) < TAP_PIXELS) return;
    moved = true;
    const [t0, t1] = rangeOfGesture(start, fingers, over.clientWidth);
    handlers.onRange([t0, t1]);
  });
  const lift = (event: PointerEvent) => {
    if (event.pointerType !== "touch" || !fingers.has(event.pointerId)) return;
    if (!moved && fingers.size === 1 && event.type === "pointerup") handlers.onTap(xOf(event));
    fingers.delete(event.pointerId);
    // The fingers left go on from where the range is now.
    restart();
  };
  over.addEventListener("pointerup", lift);
  over.addEventListener("pointercancel", lift);
}
