/**
 * A progress bar over src/lib/progress.ts: indeterminate, loading or complete; a value outside
 * 0..max throws. For uploads and other long work:
 *   <ProgressBar label="Uploading log.csv" value={fraction * 100} />
 *   <ProgressBar label="Preparing" />            // amount unknown: indeterminate
 *
 * antd's Progress draws it. It has no indeterminate mode, so an unknown amount is a full bar with
 * antd's moving highlight and no number, and `aria-valuenow` is left out as ARIA asks for an
 * indeterminate progress bar. `data-status` names the state for styling and tests.
 */
import { Progress } from "antd";
import { progressState } from "../lib/progress";

export interface ProgressBarProps {
  /** What is in progress; read by screen readers. */
  label: string;
  /** null or undefined: indeterminate. */
  value?: number | null;
  max?: number;
}

export function ProgressBar({ label, value, max }: ProgressBarProps) {
  const state = progressState(value, max);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={state.max}
      aria-valuenow={state.value ?? undefined}
      aria-busy={state.status !== "complete"}
      data-status={state.status}
    >
      <Progress
        aria-hidden
        percent={state.percent ?? 100}
        status={state.status === "complete" ? "success" : "active"}
        showInfo={state.status !== "indeterminate"}
        format={(percent) => `${Math.floor(percent ?? 0)} %`}
      />
    </div>
  );
}
