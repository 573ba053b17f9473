/** Which of the dyno's pulls is the one chosen in the pull list: the two detections may cut a run differently. */

interface Span {
  startTime: number;
  endTime: number;
}

/** The index of the pull sharing the most time with `chosen`; -1 when none overlaps it. */
export function matchingPull(pulls: readonly Span[], chosen: Span): number {
  let best = -1;
  let bestOverlap = 0;
  pulls.forEach((pull, i) => {
    const overlap = Math.min(pull.endTime, chosen.endTime) - Math.max(pull.startTime, chosen.startTime);
    if (overlap > bestOverlap) {
      best = i;
      bestOverlap = overlap;
    }
  });
  return best;
}
