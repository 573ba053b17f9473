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
  /** How many sessions ended while the page listened: what shows the car's state is read again when it grows. */
  endedVersion: number;
}

export const NO_PROGRESS: FlashProgress = {
  logs: {},
  steps: {},
  latestId: null,
  preflight: null,
  orderVersion: 0,
  endedVersion: 0,
};

/**
 * Whether a session the page meets for the first time is the one to follow. A successful recovery
 * also tells of the session it recovered (now "recovered"), which may be news to a page opened
 * after that failure: it is older than the recovery, so it must not take the recovery's place.
 */
function follows(state: FlashProgress, log: FlashLog): boolean {
  const latest = state.latestId ? state.logs[state.latestId] : undefined;
  return !latest || Date.parse(log.flashedAt) >= Date.parse(latest.flashedAt);
}

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
    const ended = event.log.result !== "running" && (!known || known.result !== event.log.result);
    return {
      ...state,
      logs: { ...state.logs, [event.log.id]: event.log },
      latestId: known || !follows(state, event.log) ? state.latestId : event.log.id,
      endedVersion: state.endedVersion + (ended ? 1 : 0),
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

/**
 * The rows a step table shows: one per step, a step's progress reports ("started", block 1 at
 * 25 %, 50 %…) replaced in place by the report that ends it, so a row turns ok or failed when its
 * step ends and carries that report's duration and bytes.
 */
export function stepRows(steps: readonly FlashLogStep[]): FlashLogStep[] {
  const rows: FlashLogStep[] = [];
  const open = new Map<string, number>();
  for (const step of [...steps].sort((a, b) => a.seq - b.seq)) {
    const key = `${step.step} ${step.block ?? ""}`;
    const at = open.get(key);
    if (at === undefined) rows.push(step);
    else rows[at] = step;
    if (step.status === "started") open.set(key, at ?? rows.length - 1);
    else open.delete(key);
  }
  return rows;
}
