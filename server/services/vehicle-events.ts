/**
 * What a vehicle's event stream carries (`GET /user-vehicles/{id}/listen`): its
 * flash sessions as they start, change and end, each step the app reports, and
 * each pre-flight the app runs (passed, or refused naming the check).
 * Published in process after the change committed, like notifications; several
 * server instances would carry it over PostgreSQL LISTEN/NOTIFY instead.
 */
import type { FlashLog, FlashLogStep, PreflightEvent } from "../../contracts/flash-logs";

export type VehicleEvent =
  | { type: "flash-log"; log: FlashLog }
  | { type: "flash-step"; flashLogId: string; step: FlashLogStep }
  | { type: "preflight"; preflight: PreflightEvent }
  /** An order for the car was paid, refunded or ended: its licences may have changed. */
  | { type: "order"; order: { id: string; status: string; tuneFileId: string | null } };
type Listener = (event: VehicleEvent) => void;

export class VehicleEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  publish(vehicleId: string, event: VehicleEvent): void {
    for (const listener of this.listeners.get(vehicleId) ?? []) listener(event);
  }

  subscribe(vehicleId: string, listener: Listener): () => void {
    const set = this.listeners.get(vehicleId) ?? new Set();
    set.add(listener);
    this.listeners.set(vehicleId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(vehicleId);
    };
  }
}
