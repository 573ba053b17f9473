/**
 * A car's flash sessions as its event stream tells them (`flash-log` for a session as it
 * starts, changes and ends; `flash-step` for each step; `preflight` for each pre-flight the app
 * runs), folded into what the page shows: each session's latest state and its steps in order,
 * each step once, and the app's latest pre-flight.
 */
import type { FlashLog, FlashLogStep, PreflightEvent } from "../../contracts/flash-logs";

export interface FlashProgress {
  logs: Record<string, FlashLog>;
  steps: Record<string, FlashLogStep[]>;
  /** The session started most recently while the page listened. */
  latestId: string | null;
  /** The pre-flight the app ran most recently while the page listened. */
  preflight: PreflightEvent | null;
  /** How many orders for the car changed while the page listened: its licences are read again when it grows. */
  orderVersion: number;
}

export const NO_PROGRESS: FlashProgress = { logs: {}, steps: {}, latestId: null, preflight: null, orderVersion: 0 };

export type FlashEvent =
  | { type: "flash-log"; log: FlashLog }
  | { type: "flash-step"; flashLogId: string; step: FlashLogStep }
  | { type: "preflight"; preflight: PreflightEvent }
  | { type: "order" };

export function applyFlashEvent(state: FlashProgress, event: FlashEvent): FlashProgress {
  if (event.type === "preflight") return { ...state, preflight: event.preflight };
  if (event.type === "order") return { ...state, orderVersion: state.orderVersion + 1 };
  if (event.type === "flash-log") {
    const known = state.logs[event.log.id];
    return {
      ...state,
      logs: { ...state.logs, [event.log.id]: event.log },
      latestId: known ? state.latestId : event.log.id,
    };
  }
  const steps = state.steps[event.flashLogId] ?? [];
  if (steps.some((step) => step.seq === event.step.seq)) return state;
  const next = [...steps, event.step].sort((a, b) => a.seq - b.seq);
  return { ...state, steps: { ...state.steps, [event.flashLogId]: next } };
}

/** A one-line account of where a session is: "block 2 · 45 %", "security-access", "done". */
export function progressLabel(log: Pick<FlashLog, "progress" | "result">): string {
  if (!log.progress) return log.result === "running" ? "starting" : log.result;
  const { step, block, percent } = log.progress;
  const where = step === "block" && block !== null ? `block ${block}` : step;
  return percent !== null ? `${where} · ${Math.round(percent)} %` : where;
}
