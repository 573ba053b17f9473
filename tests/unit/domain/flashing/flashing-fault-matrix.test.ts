/**
 * The flash rehearsed on the virtual ECU: every fault at every step ends either in success
 * after the app's retries, or in a state the portal offers to recover from (resume from the
 * failed block, or write the stock read back) — and recovering succeeds. No cell ends with an
 * ECU that cannot boot.
 */
import { describe, expect, it } from "vitest";
import {
  type FlashBlockData,
  type FlashOutcome,
  type FlashStepName,
  flash,
  type StepReport,
} from "../../../../domain/flashing/flasher";
import { computeKey } from "../../../../domain/flashing/seed-key";
import { NRC, VirtualEcu, type VirtualEcuBlock } from "../../../../domain/flashing/uds-ecu";
import {
  FAULT_STEPS,
  FAULTS,
  type FaultKind,
  manualClock,
  VirtualLink,
} from "../../../../domain/flashing/virtual-link";

const SECRET = "0x1A2B3C4D";
const ALGORITHM = "xor-rotate-32";
const LEVEL = 0x11;
const BLOCKS: VirtualEcuBlock[] = [
  { number: 1, baseAddress: 0x8000, length: 0x4000 },
  { number: 2, baseAddress: 0xc000, length: 0x4000 },
];

/** Deterministic bytes: the stock image, and a tune that differs in both blocks. */
const stock = Uint8Array.from({ length: 0x10000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);
const tune = stock.slice();
for (let i = 0x8100; i < 0x8200; i++) tune[i] ^= 0x3c;
for (let i = 0xd000; i < 0xd010; i++) tune[i] = 0x42;

const blocksOf = (image: Uint8Array): FlashBlockData[] =>
  BLOCKS.map((b) => ({
    number: b.number,
    baseAddress: b.baseAddress,
    data: image.slice(b.baseAddress, b.baseAddress + b.length),
  }));

function rig(options: { maxBlockLength?: number } = {}) {
  const clock = manualClock(1_000_000);
  const ecu = new VirtualEcu({
    identity: {
      vin: "WVWZZZAUZKW000001",
      ecuSerial: "SER-1",
      softwareId: "SW-1",
      hardwareNumber: "HW-1",
      bootloaderVersion: "BL-1",
    },
    blocks: BLOCKS,
    memory: stock.slice(),
    seedKeyAlgorithm: ALGORITHM,
    secret: SECRET,
    securityLevel: LEVEL,
    now: clock.now,
    ...options,
  });
  const link = new VirtualLink(ecu, clock);
  const steps: StepReport[] = [];
  const run = (image: Uint8Array, resumeFromBlock?: number): Promise<FlashOutcome> =>
    flash(
      link,
      { blocks: blocksOf(image), securityLevel: LEVEL, resumeFromBlock },
      {
        // The portal's answer: the key computed on the server from the seed.
        key: async (seed) => computeKey(ALGORITHM, seed, SECRET),
        report: (step) => steps.push(step),
        now: () => new Date(clock.now()),
      },
    );
  const holds = (image: Uint8Array) =>
    BLOCKS.every((b) => ecu.blockContents(b.number).every((byte, i) => byte === image[b.baseAddress + i]));
  return { ecu, link, clock, steps, run, holds };
}

describe("a flash on the virtual ECU", () => {
  it("writes every block, verifies it, resets and boots the new software, reporting each step in order", async () => {
    const { ecu, steps, run, holds } = rig();
    expect(await run(tune)).toEqual({ ok: true });
    expect(ecu.boots()).toBe(true);
    expect(holds(tune)).toBe(true);
    expect(steps.map((s) => s.seq)).toEqual(steps.map((_, i) => i + 1));
    expect(steps[0].step).toBe("setup");
    expect(steps.at(-1)).toMatchObject({ step: "done", status: "ok" });
    expect(steps.filter((s) => s.step === "block" && s.status === "ok").map((s) => [s.block, s.percent])).toEqual([
      [1, 100],
      [2, 100],
    ]);
  });

  it("ends every step it starts, each ending with its duration and the UDS bytes of its last exchange", async () => {
    const { run, steps } = rig();
    expect(await run(tune)).toEqual({ ok: true });
    const key = (s: StepReport) => `${s.step} ${s.block ?? ""}`;
    for (const [i, started] of steps.entries())
      if (started.status === "started")
        expect(
          steps.slice(i + 1).some((s) => key(s) === key(started) && s.status === "ok"),
          `${key(started)} (seq ${started.seq}) never ended`,
        ).toBe(true);
    const ended = steps.filter((s) => s.status === "ok");
    expect(ended.every((s) => typeof s.durationMs === "number")).toBe(true);
    expect(steps.find((s) => s.step === "erasing" && s.status === "ok")).toMatchObject({
      block: 1,
      request: "3101FF0001",
      response: expect.stringMatching(/^7101FF00/),
    });
    // A transfer's request is its service, counter and first bytes, not the whole block.
    expect(steps.find((s) => s.step === "block" && s.status === "ok")?.request).toMatch(/^36[0-9A-F]{14}$/);
    expect(steps.find((s) => s.step === "reset")).toMatchObject({ request: "1101", response: "5101" });
  });

  it("wraps the block sequence counter from 0xFF to 0x00 on a long block", async () => {
    // 32-byte transfers: a 16 KiB block takes 512 of them, so the counter wraps twice.
    const { ecu, run, holds } = rig({ maxBlockLength: 0x22 });
    expect(await run(tune)).toEqual({ ok: true });
    expect(ecu.boots() && holds(tune)).toBe(true);
  });

  it("locks security access after three wrong keys and opens again once the delay has passed", () => {
    const { ecu, clock } = rig();
    ecu.request(Uint8Array.of(0x10, 0x03));
    const wrong = () => {
      ecu.request(Uint8Array.of(0x27, LEVEL));
      return ecu.request(Uint8Array.of(0x27, LEVEL + 1, 0, 0, 0, 0))[0];
    };
    expect(Array.from(wrong())).toEqual([0x7f, 0x27, NRC.invalidKey]);
    expect(Array.from(wrong())).toEqual([0x7f, 0x27, NRC.invalidKey]);
    expect(Array.from(wrong())).toEqual([0x7f, 0x27, NRC.exceededAttempts]);
    expect(Array.from(ecu.request(Uint8Array.of(0x27, LEVEL))[0])).toEqual([0x7f, 0x27, NRC.timeDelayNotExpired]);
    clock.advance(10 * 60_000);
    const seed = ecu.request(Uint8Array.of(0x27, LEVEL))[0];
    expect(seed[0]).toBe(0x67);
    const key = computeKey(ALGORITHM, seed.subarray(2), SECRET);
    expect(Array.from(ecu.request(Uint8Array.of(0x27, LEVEL + 1, ...key))[0])).toEqual([0x67, LEVEL + 1]);
  });

  it("answers long operations with response-pending first, and refuses programming out of order or at low voltage", () => {
    const { ecu } = rig();
    expect(Array.from(ecu.request(Uint8Array.of(0x10, 0x02))[0])).toEqual([0x7f, 0x10, NRC.conditionsNotCorrect]);
    ecu.request(Uint8Array.of(0x10, 0x03));
    ecu.request(Uint8Array.of(0x10, 0x02));
    expect(Array.from(ecu.request(Uint8Array.of(0x31, 0x01, 0xff, 0x00, 1))[0])).toEqual([
      0x7f,
      0x31,
      NRC.securityAccessDenied,
    ]);
    const seed = ecu.request(Uint8Array.of(0x27, LEVEL))[0].subarray(2);
    ecu.request(Uint8Array.of(0x27, LEVEL + 1, ...computeKey(ALGORITHM, seed, SECRET)));
    const erase = ecu.request(Uint8Array.of(0x31, 0x01, 0xff, 0x00, 1));
    expect(erase.slice(0, -1).every((a) => a[0] === 0x7f && a[2] === NRC.responsePending)).toBe(true);
    expect(erase.at(-1)?.[0]).toBe(0x71);
    expect(Array.from(ecu.request(Uint8Array.of(0x36, 0x01, 0x00))[0])).toEqual([0x7f, 0x36, 0x24]);
    ecu.batteryVolts = 10.2;
    expect(Array.from(ecu.request(Uint8Array.of(0x31, 0x01, 0xff, 0x00, 2))[0])).toEqual([
      0x7f,
      0x31,
      NRC.voltageTooLow,
    ]);
    // Erased and not written back: the car does not start until a flash completes.
    expect(ecu.boots()).toBe(false);
  });
});

describe("the fault matrix", () => {
  // Each cell once with each way back, so both recoveries are proven from every failure.
  const cells = FAULTS.flatMap((fault) =>
    FAULT_STEPS[fault].flatMap((step) => (["resume", "stock"] as const).map((recovery) => ({ fault, step, recovery }))),
  );

  it.each(cells)(
    "$fault at $step: succeeds after retries, or recovers by $recovery",
    async ({ fault, step, recovery }: { fault: FaultKind; step: FlashStepName; recovery: "resume" | "stock" }) => {
      const { ecu, link, run, holds } = rig();
      link.arm({ kind: fault, at: step });
      const outcome = await run(tune);
      if (outcome.ok) {
        expect(ecu.boots()).toBe(true);
        expect(holds(tune)).toBe(true);
        return;
      }
      // What the portal shows: where it failed and why.
      expect(outcome.message).not.toBe("");
      // The user fixes the cause (a charger, a cable) and recovers from the page.
      link.clear();
      ecu.powerCycle();
      const again =
        recovery === "resume" && outcome.block !== null
          ? await run(tune, outcome.block)
          : await run(recovery === "stock" ? stock : tune);
      expect(again).toEqual({ ok: true });
      expect(ecu.boots()).toBe(true);
      expect(holds(recovery === "stock" ? stock : tune)).toBe(true);
    },
  );

  it("names the step, block and code of a flash the app cannot finish", async () => {
    const { ecu, link, run, steps } = rig();
    link.arm({ kind: "low-voltage", at: "block" });
    const outcome = await run(tune);
    expect(outcome).toMatchObject({ ok: false, step: "block", block: 1, nrc: NRC.voltageTooLow });
    expect(steps.at(-1)).toMatchObject({
      step: "block",
      status: "failed",
      block: 1,
      nrc: NRC.voltageTooLow,
      // The request download the ECU refused, as the session records it.
      response: `7F34${NRC.voltageTooLow.toString(16).toUpperCase()}`,
    });
    // Mid-flash: the application is gone, the bootloader waits for recovery.
    expect(ecu.boots()).toBe(false);
  });
});
