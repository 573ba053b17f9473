import { describe, expect, it } from "vitest";
import { rangeOfGesture } from "../../../../src/lib/touch-gesture";

const at = (entries: Array<[number, number]>) => new Map(entries);

describe("rangeOfGesture", () => {
  // 100 px show 10 s to 20 s: a pixel is 0.1 s.
  const start = { fingers: at([[1, 50]]), range: [10, 20] as const };
  /** Two fingers at 40 and 60 px. */
  const two = {
    fingers: at([
      [1, 40],
      [2, 60],
    ]),
    range: [10, 20] as const,
  };

  it("drags the range with one finger: 20 px to the right shows 2 s earlier", () => {
    expect(rangeOfGesture(start, at([[1, 70]]), 100)).toEqual([8, 18]);
    expect(rangeOfGesture(start, at([[1, 30]]), 100)).toEqual([12, 22]);
  });

  it("pinches with two fingers: twice as far apart shows half the span, the time under the midpoint kept", () => {
    // Midpoint 50 px (15 s) stays under the midpoint; the spread goes from 20 to 40 px.
    expect(
      rangeOfGesture(
        two,
        at([
          [1, 30],
          [2, 70],
        ]),
        100,
      ),
    ).toEqual([12.5, 17.5]);
    // Closer together: twice the span.
    expect(
      rangeOfGesture(
        two,
        at([
          [1, 45],
          [2, 55],
        ]),
        100,
      ),
    ).toEqual([5, 25]);
  });

  it("moves the pinned time with the midpoint when both fingers slide", () => {
    // Same spread, midpoint 10 px to the right: 15 s now sits at 60 px, the range 1 s earlier.
    expect(
      rangeOfGesture(
        two,
        at([
          [1, 50],
          [2, 70],
        ]),
        100,
      ),
    ).toEqual([9, 19]);
  });

  it("keeps the range while none of the gesture's fingers is down, and never divides by a zero spread", () => {
    expect(rangeOfGesture(start, at([[7, 10]]), 100)).toEqual([10, 20]);
    const [from, to] = rangeOfGesture(
      two,
      at([
        [1, 50],
        [2, 50],
      ]),
      100,
    );
    expect(Number.isFinite(from) && Number.isFinite(to)).toBe(true);
    expect(to - from).toBeCloseTo(25);
  });
});
