/** Who asks a service for a change: the verified caller, and the request's id that the audit trail keeps with it. */
import type { VerifiedCaller } from "./identity";

export interface Requester {
  caller: VerifiedCaller;
  id: string;
}
