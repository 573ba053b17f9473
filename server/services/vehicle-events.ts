/**
 * What a vehicle's event stream carries (`GET /user-vehicles/{id}/listen`): its
 * flash sessions as they start, change and end, each step the app reports, and
 * each pre-flight the app runs (passed, or refused naming the check).
 * Published after the change committed, to every instance (services/topics.ts).
 */
import type { FlashLog, FlashLogStep, PreflightEvent } from "../../contracts/flash-logs";
import type { LiveEventBus } from "./live-events";
import { Topics } from "./topics";

export type VehicleEvent =
  | { type: "flash-log"; log: FlashLog }
  | { type: "flash-step"; flashLogId: string; step: FlashLogStep }
  | { type: "preflight"; preflight: PreflightEvent }
  /** An order for the car was paid, refunded or ended: its licences may have changed. */
  | { type: "order"; order: { id: string; status: string; tuneFileId: string | null } };
/** A vehicle's events, keyed by the vehicle's id. */
export class VehicleEvents extends Topics<VehicleEvent> {
  constructor(bus: LiveEventBus) {
    super(bus, "vehicle");
  }
}
