/**
 * The adapter between the app and the virtual ECU, with the faults a real link has: answers
 * after response-pending are waited for up to P2* (time advances on the injected clock), and
 * armed faults disturb the request of one step — a response-pending storm, a dropped answer, a
 * corrupted key, a wrong block counter, a corrupted block, power lost, low voltage.
 */
import type { FlashStepName, Transport } from "./flasher";
import type { VirtualEcu } from "./uds-ecu";

export const FAULTS = [
  "pending-storm",
  "dropped-response",
  "wrong-key",
  "wrong-counter",
  "corrupt-block",
  "power-loss",
  "low-voltage",
] as const;
export type FaultKind = (typeof FAULTS)[number];

const ANY_STEP = [
  "connecting",
  "security-access",
  "erasing",
  "block",
  "verifying",
  "dependencies",
  "reset",
] as const satisfies readonly FlashStepName[];

/** Where each fault can strike: a key only at security access, a counter or a block only while transferring. */
export const FAULT_STEPS: Readonly<Record<FaultKind, readonly FlashStepName[]>> = {
  "pending-storm": ANY_STEP,
  "dropped-response": ANY_STEP,
  "wrong-key": ["security-access"],
  "wrong-counter": ["block"],
  "corrupt-block": ["block"],
  "power-loss": ANY_STEP,
  "low-voltage": ["erasing", "block", "verifying", "dependencies"],
};

export interface Fault {
  kind: FaultKind;
  at: FlashStepName;
}

export interface Clock {
  now(): number;
  advance(ms: number): void;
}

export const manualClock = (start = 0): Clock => {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
};

/** Which requests belong to a step, by their first bytes. */
function stepOf(request: Uint8Array): FlashStepName | null {
  const [sid, a, b, c] = request;
  if (sid === 0x10 || sid === 0x22) return "connecting";
  if (sid === 0x27 || sid === 0x2e) return "security-access";
  if (sid === 0x31 && a === 0x01 && b === 0xff && c === 0x00) return "erasing";
  if (sid === 0x34 || sid === 0x36 || sid === 0x37) return "block";
  if (sid === 0x31 && b === 0x02 && c === 0x02) return "verifying";
  if (sid === 0x31 && b === 0xff && c === 0x01) return "dependencies";
  if (sid === 0x11) return "reset";
  return null;
}

export interface LinkTiming {
  p2Ms: number;
  p2StarMs: number;
  /** How long the ECU takes between two response-pending answers. */
  pendingMs: number;
  /** The link's throughput: each request's bytes advance the clock by their time on the wire. Unset: instant. */
  bytesPerSecond?: number;
}

export class VirtualLink implements Transport {
  private armed: Fault | null = null;
  private transfers = 0;

  constructor(
    private readonly ecu: VirtualEcu,
    private readonly clock: Clock,
    private readonly timing: LinkTiming = { p2Ms: 50, p2StarMs: 5000, pendingMs: 100 },
  ) {}

  /** Arms one fault: it strikes once, at its step (low voltage lasts until `clear`). */
  arm(fault: Fault): void {
    this.armed = fault;
    this.transfers = 0;
  }

  clear(): void {
    this.armed = null;
    this.ecu.batteryVolts = 12.6;
  }

  async request(bytes: Uint8Array): Promise<Uint8Array | null> {
    let request = bytes;
    if (this.timing.bytesPerSecond) this.clock.advance((bytes.length * 1000) / this.timing.bytesPerSecond);
    const fault = this.armed && stepOf(bytes) === this.armed.at ? this.armed : null;
    let storm = 0;
    if (fault) {
      const strike = () => void (this.armed = null);
      switch (fault.kind) {
        case "pending-storm":
          // Longer than P2*: the app gives up waiting, and its retry finds the ECU done.
          storm = 60;
          strike();
          break;
        case "dropped-response":
          this.ecu.request(request);
          strike();
          this.clock.advance(this.timing.p2StarMs);
          return null;
        case "wrong-key":
          if (bytes[0] === 0x27 && bytes[1] % 2 === 0) {
            request = bytes.slice();
            request[2] ^= 0xff;
            strike();
          }
          break;
        case "wrong-counter":
          if (bytes[0] === 0x36 && ++this.transfers === 3) {
            request = bytes.slice();
            request[1] = (request[1] + 5) & 0xff;
            strike();
          }
          break;
        case "corrupt-block":
          if (bytes[0] === 0x36 && ++this.transfers === 2) {
            request = bytes.slice();
            request[request.length - 1] ^= 0x5a;
            strike();
          }
          break;
        case "power-loss":
          // Mid-transfer for a block; at the step's first request otherwise.
          if (fault.at !== "block" || (bytes[0] === 0x36 && ++this.transfers === 3)) {
            this.ecu.powerCycle();
            strike();
            this.clock.advance(this.timing.p2StarMs);
            return null;
          }
          break;
        case "low-voltage":
          this.ecu.batteryVolts = 10.4;
          break;
      }
    }
    const answers = this.ecu.request(request);
    let waited = 0;
    for (let i = 0; i < storm; i++) {
      waited += this.timing.pendingMs;
      this.clock.advance(this.timing.pendingMs);
    }
    for (const answer of answers.slice(0, -1)) {
      if (answer[0] === 0x7f && answer[2] === 0x78) {
        waited += this.timing.pendingMs;
        this.clock.advance(this.timing.pendingMs);
      }
    }
    if (waited > this.timing.p2StarMs) return null;
    this.clock.advance(this.timing.p2Ms / 5);
    return answers[answers.length - 1];
  }
}
