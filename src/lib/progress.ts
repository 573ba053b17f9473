/**
 * Progress bar state; the maximum is 100 unless given.
 *
 * No value (null/undefined) means the amount of work is unknown: 'indeterminate'. A value from
 * 0 up to, but not including, the maximum is 'loading'; the maximum itself is 'complete'. A
 * value outside 0..max, a value that is not a number, or a maximum that is not a positive
 * number throws, because a bar that silently clamps hides the bug that produced the number.
 */

export const PROGRESS_DEFAULT_MAX = 100;

export type ProgressStatus = "indeterminate" | "loading" | "complete";

export interface ProgressState {
  status: ProgressStatus;
  value: number | null;
  max: number;
  /** 0 to 100, null while indeterminate. */
  percent: number | null;
}

export function progressState(value: number | null | undefined, max: number = PROGRESS_DEFAULT_MAX): ProgressState {
  if (!Number.isFinite(max) || max <= 0)
    throw new RangeError(`Progress maximum must be a positive number, got ${max}.`);
  if (value === null || value === undefined) return { status: "indeterminate", value: null, max, percent: null };
  if (!Number.isFinite(value) || value < 0 || value > max) {
    throw new RangeError(`Progress value must be between 0 and ${max}, got ${value}.`);
  }
  return { status: value === max ? "complete" : "loading", value, max, percent: (value / max) * 100 };
}
