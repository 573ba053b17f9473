/**
 * The phone app's flash procedure over UDS, in VW_Flash's order (shared/docs/domain.md
 * "Flashing"): extended session and identity, programming session, security access with the
 * key the portal answers for the seed, fingerprint, then per block erase → request download →
 * transfer data (counter wrapping 0xFF → 0x00) → transfer exit → checksum routine, then
 * dependencies and reset. Every step is reported (`FlashStepReport`) for the portal's session.
 *
 * Retries: a lost answer (time-out) re-enters the programming session, unlocks again and
 * repeats the step; an invalid key asks for a new seed and key; a wrong sequence counter, a
 * programming failure or a failed checksum redoes the block from its erase. Conditions the app
 * cannot fix (voltage, a locked ECU) end the flash at once, naming the step, block and code,
 * so the portal can offer to resume from that block or to write the stock read back.
 */
import { crc32 } from "../tune/crc32";

export type FlashStepName =
  | "setup"
  | "connecting"
  | "security-access"
  | "erasing"
  | "block"
  | "verifying"
  | "dependencies"
  | "reset"
  | "done";

export interface StepReport {
  seq: number;
  step: FlashStepName;
  block?: number;
  percent?: number;
  status: "started" | "ok" | "retry" | "failed";
  at: string;
  /** How long the step took, on the report that ends it. */
  durationMs?: number;
  retries: number;
  request?: string;
  response?: string;
  nrc?: number;
  message: string;
}

/** Sends a request and waits for its final answer (response-pending handled); null when none came in time. */
export interface Transport {
  request(bytes: Uint8Array): Promise<Uint8Array | null>;
}

export interface FlashBlockData {
  number: number;
  baseAddress: number;
  data: Uint8Array;
}

export interface FlashPlan {
  /** The blocks to write; a function when they are known only once the ECU is unlocked (the app downloads the file with the grant the key came with). */
  blocks: readonly FlashBlockData[] | (() => readonly FlashBlockData[]);
  securityLevel: number;
  /** Start at this block (a resume after a failure mid-transfer); earlier blocks are left as written. */
  resumeFromBlock?: number;
  maxRetries?: number;
}

export interface FlashHooks {
  /** The security-access key for a seed: in the app, the portal's flash-authentication answer. */
  key(seed: Uint8Array): Promise<Uint8Array>;
  report(step: StepReport): void;
  now(): Date;
}

export type FlashOutcome =
  | { ok: true }
  | { ok: false; step: FlashStepName; block: number | null; nrc: number | null; message: string };

const hex = (bytes: Uint8Array | null) =>
  bytes
    ? Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
        .join("")
        .toUpperCase()
    : undefined;
/** A request or answer as a step records it: its service and parameters, not the kilobytes of a transfer. */
const SERVICE_BYTES = 8;
const serviceBytes = (bytes: Uint8Array) => hex(bytes.subarray(0, SERVICE_BYTES)) as string;
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

class StepFailed extends Error {
  constructor(
    readonly step: FlashStepName,
    readonly block: number | null,
    readonly nrc: number | null,
    message: string,
    /** Whether trying the step again may help. */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Codes a retry of the same step may get past; the rest need the user (charger, waiting, another file). */
const RETRYABLE_NRC = new Set([0x35, 0x71, 0x72, 0x73, 0x24, 0x70]);

export async function flash(transport: Transport, plan: FlashPlan, hooks: FlashHooks): Promise<FlashOutcome> {
  const maxRetries = plan.maxRetries ?? 3;
  let seq = 0;
  let maxBlockLength = 0x402;
  // The step under way: when it began and the last exchange it made, which its ending report carries.
  let stepStart = hooks.now().getTime();
  let exchange: { request: Uint8Array; response: Uint8Array | null } | null = null;
  const exchanged = async (bytes: Uint8Array) => {
    const answer = await transport.request(bytes);
    exchange = { request: bytes, response: answer };
    return answer;
  };
  const report = (step: FlashStepName, status: StepReport["status"], extra: Partial<StepReport> = {}) => {
    const now = hooks.now();
    // "started" is a step's progress; any other status ends it (or one try of it) with its time and bytes.
    const ending =
      status === "started"
        ? {}
        : {
            durationMs: Math.max(0, now.getTime() - stepStart),
            ...(exchange && { request: serviceBytes(exchange.request) }),
            ...(exchange?.response && { response: serviceBytes(exchange.response) }),
          };
    hooks.report({ seq: ++seq, step, status, at: now.toISOString(), retries: 0, message: "", ...ending, ...extra });
    if (status === "ok" || status === "failed") {
      stepStart = now.getTime();
      exchange = null;
    }
  };

  const send = async (step: FlashStepName, block: number | null, bytes: Uint8Array): Promise<Uint8Array> => {
    const answer = await exchanged(bytes);
    if (!answer) throw new StepFailed(step, block, null, `no answer to ${hex(bytes.subarray(0, 4))} in time`, true);
    if (answer[0] === 0x7f) {
      const nrc = answer[2];
      throw new StepFailed(
        step,
        block,
        nrc,
        `negative response 0x${nrc.toString(16).padStart(2, "0")} to ${hex(bytes.subarray(0, 4))}`,
        RETRYABLE_NRC.has(nrc),
      );
    }
    return answer;
  };

  const unlock = async () => {
    const seedAnswer = await send("security-access", null, Uint8Array.of(0x27, plan.securityLevel));
    const seed = seedAnswer.subarray(2);
    if (seed.every((b) => b === 0)) return;
    const key = await hooks.key(seed);
    await send("security-access", null, Uint8Array.of(0x27, plan.securityLevel + 1, ...key));
  };

  /** Back into the programming session, unlocked: after a lost answer or a power cycle. */
  const reenter = async () => {
    const extended = await exchanged(Uint8Array.of(0x10, 0x03));
    if (!extended) throw new StepFailed("connecting", null, null, "the ECU does not answer", true);
    await send("connecting", null, Uint8Array.of(0x10, 0x02));
    await unlock();
  };

  /** Runs `work` with the retry policy; `step` and `block` name where a failure happened. */
  const withRetries = async (step: FlashStepName, block: number | null, work: () => Promise<void>) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await work();
        return;
      } catch (error) {
        if (!(error instanceof StepFailed)) throw error;
        if (!error.retryable || attempt >= maxRetries) throw error;
        report(step, "retry", {
          ...(block !== null && { block }),
          retries: attempt + 1,
          ...(error.nrc !== null && { nrc: error.nrc }),
          message: error.message,
        });
        // A lost answer may mean the ECU restarted (power): enter the programming session again.
        await withRetries("connecting", null, reenter);
      }
    }
  };

  const writeBlock = async (block: FlashBlockData) => {
    report("erasing", "started", { block: block.number });
    await send("erasing", block.number, Uint8Array.of(0x31, 0x01, 0xff, 0x00, block.number));
    report("erasing", "ok", { block: block.number });
    const answer = await send(
      "block",
      block.number,
      Uint8Array.of(0x34, 0x00, 0x44, ...be32(block.baseAddress), ...be32(block.data.length)),
    );
    maxBlockLength = (answer[2] << 8) | answer[3];
    const chunk = maxBlockLength - 2;
    const chunks = Math.ceil(block.data.length / chunk);
    let counter = 1;
    let lastPercent = 0;
    for (let i = 0; i < chunks; i++) {
      const data = block.data.subarray(i * chunk, Math.min(block.data.length, (i + 1) * chunk));
      const request = Uint8Array.of(0x36, counter, ...data);
      const sent = await exchanged(request);
      // One lost answer: the same block is sent again with the same counter, as ISO 14229 allows.
      const final = sent ?? (await exchanged(request));
      if (!final)
        throw new StepFailed("block", block.number, null, `no answer to transfer ${i + 1} of ${chunks}`, true);
      if (final[0] === 0x7f)
        throw new StepFailed(
          "block",
          block.number,
          final[2],
          `negative response 0x${final[2].toString(16)} to transfer ${i + 1}`,
          RETRYABLE_NRC.has(final[2]),
        );
      counter = (counter + 1) & 0xff;
      const percent = Math.floor(((i + 1) * 100) / chunks);
      if (percent >= lastPercent + 25 || i === chunks - 1) {
        lastPercent = percent;
        report("block", i === chunks - 1 ? "ok" : "started", { block: block.number, percent });
      }
    }
    await send("block", block.number, Uint8Array.of(0x37));
    const check = await send(
      "verifying",
      block.number,
      Uint8Array.of(0x31, 0x01, 0x02, 0x02, block.number, ...be32(crc32(block.data))),
    );
    if (check[4] !== 0x00)
      throw new StepFailed(
        "verifying",
        block.number,
        null,
        `block ${block.number} failed its checksum: written bytes differ`,
        true,
      );
    report("verifying", "ok", { block: block.number });
  };

  try {
    report("setup", "ok");
    await withRetries("connecting", null, async () => {
      await send("connecting", null, Uint8Array.of(0x10, 0x03));
      await send("connecting", null, Uint8Array.of(0x22, 0xf1, 0x90));
      await send("connecting", null, Uint8Array.of(0x10, 0x02));
    });
    report("connecting", "ok");
    await withRetries("security-access", null, unlock);
    await withRetries(
      "security-access",
      null,
      async () => void (await send("security-access", null, Uint8Array.of(0x2e, 0xf1, 0x5a, 0x01, 0x02, 0x03))),
    );
    report("security-access", "ok");
    const all = typeof plan.blocks === "function" ? plan.blocks() : plan.blocks;
    const blocks =
      plan.resumeFromBlock === undefined ? all : all.filter((b) => b.number >= (plan.resumeFromBlock as number));
    for (const block of blocks) await withRetries("block", block.number, () => writeBlock(block));
    await withRetries("dependencies", null, async () => {
      const answer = await send("dependencies", null, Uint8Array.of(0x31, 0x01, 0xff, 0x01));
      if (answer[4] !== 0x00)
        throw new StepFailed("dependencies", null, null, "the ECU reports its blocks do not fit together", false);
    });
    report("dependencies", "ok");
    await withRetries("reset", null, async () => void (await send("reset", null, Uint8Array.of(0x11, 0x01))));
    report("reset", "ok");
    report("done", "ok");
    return { ok: true };
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    report(error.step, "failed", {
      ...(error.block !== null && { block: error.block }),
      ...(error.nrc !== null && { nrc: error.nrc }),
      message: error.message,
    });
    return { ok: false, step: error.step, block: error.block, nrc: error.nrc, message: error.message };
  }
}
