/**
 * A virtual ECU: a UDS (ISO 14229) state machine that answers request bytes the way a
 * flashable engine ECU does (shared/docs/domain.md "Flashing"), so that a whole flash — faults
 * included — can be rehearsed with no car. Time comes from an injected clock.
 *
 * Services: 10 session control; 22 read identifiers (F190 VIN, F18C ECU serial, F188 software,
 * F191 hardware, F180 bootloader); 27 security access with the seed/key algorithm, three wrong
 * keys lock it for `lockoutMs` (0x36, then 0x37); 2E F15A fingerprint; 31 01 FF00 erase a block
 * (answered after response-pending 0x78); 34 request download (answers the maximum block
 * length); 36 transfer data with the block sequence counter from 0x01 wrapping 0xFF → 0x00
 * (a wrong counter is 0x73, the last block repeated is taken again); 37 transfer exit;
 * 31 01 0202 checksum of a block (CRC-32); 31 01 FF01 dependencies; 11 01 reset; 14 clear
 * fault codes; 23 read memory (how a stock read is taken). The application boots only when
 * every block was written and verified and the dependencies passed; otherwise the ECU stays
 * in its bootloader and still accepts a programming session, which makes recovery possible.
 */
import { crc32 } from "../tune/crc32";
import { computeKey } from "./seed-key";

export interface VirtualEcuIdentity {
  vin: string;
  ecuSerial: string;
  softwareId: string;
  hardwareNumber: string;
  bootloaderVersion: string;
}

export interface VirtualEcuBlock {
  number: number;
  baseAddress: number;
  length: number;
}

export interface VirtualEcuOptions {
  identity: VirtualEcuIdentity;
  blocks: readonly VirtualEcuBlock[];
  /** The flash memory, addressed from 0 (blocks are ranges of it). */
  memory: Uint8Array;
  seedKeyAlgorithm: string;
  secret: string;
  securityLevel: number;
  /** Now, in ms; advanced by the caller (the transport). */
  now: () => number;
  maxBlockLength?: number;
  lockoutMs?: number;
  /** How many response-pending answers long operations (erase, checksum) send first. */
  pendingCount?: number;
}

export const NRC = {
  subFunctionNotSupported: 0x12,
  incorrectLength: 0x13,
  conditionsNotCorrect: 0x22,
  requestSequenceError: 0x24,
  requestOutOfRange: 0x31,
  securityAccessDenied: 0x33,
  invalidKey: 0x35,
  exceededAttempts: 0x36,
  timeDelayNotExpired: 0x37,
  uploadDownloadNotAccepted: 0x70,
  generalProgrammingFailure: 0x72,
  wrongBlockSequenceCounter: 0x73,
  responsePending: 0x78,
  voltageTooHigh: 0x92,
  voltageTooLow: 0x93,
} as const;

const DID = {
  vin: 0xf190,
  ecuSerial: 0xf18c,
  softwareId: 0xf188,
  hardwareNumber: 0xf191,
  bootloaderVersion: 0xf180,
} as const;
const ascii = (text: string) => Array.from(new TextEncoder().encode(text));
const negative = (service: number, code: number) => Uint8Array.of(0x7f, service, code);
const word = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

type Session = "default" | "extended" | "programming";
type BlockState = "intact" | "erased" | "written" | "verified";

/** The answers to one request: response-pending first, if any, then the final one. */
export type Answer = Uint8Array[];

export class VirtualEcu {
  session: Session = "default";
  unlocked = false;
  batteryVolts = 12.6;
  /** The application runs (true) or the ECU waits in its bootloader after an interrupted flash. */
  applicationValid = true;
  private readonly options: Required<VirtualEcuOptions>;
  private readonly blockState = new Map<number, BlockState>();
  private seed: Uint8Array | null = null;
  private wrongKeys = 0;
  private lockedUntil = 0;
  private dependenciesOk = true;
  private download: {
    block: VirtualEcuBlock;
    next: number;
    offset: number;
    lastSeq: number | null;
    lastLength: number;
  } | null = null;
  private seedCounter = 0x1234abcd;

  constructor(options: VirtualEcuOptions) {
    this.options = { maxBlockLength: 0x402, lockoutMs: 10 * 60_000, pendingCount: 2, ...options };
    for (const block of options.blocks) this.blockState.set(block.number, "intact");
  }

  get identity(): VirtualEcuIdentity {
    return this.options.identity;
  }

  /** Whether the car would start: the application is whole. */
  boots(): boolean {
    return this.applicationValid;
  }

  /** Power lost and back: sessions, security and a running download are gone; an interrupted flash leaves the bootloader in charge. */
  powerCycle(): void {
    this.session = "default";
    this.unlocked = false;
    this.seed = null;
    this.download = null;
  }

  blockContents(number: number): Uint8Array {
    const block = this.blockOf(number);
    return this.options.memory.slice(block.baseAddress, block.baseAddress + block.length);
  }

  private blockOf(number: number): VirtualEcuBlock {
    const block = this.options.blocks.find((b) => b.number === number);
    if (!block) throw new RangeError(`no block ${number}`);
    return block;
  }

  private pending(service: number, final: Uint8Array): Answer {
    return [...Array.from({ length: this.options.pendingCount }, () => negative(service, NRC.responsePending)), final];
  }

  /** Voltage outside what programming needs refuses every write. */
  private voltageProblem(service: number): Uint8Array | null {
    if (this.batteryVolts < 11) return negative(service, NRC.voltageTooLow);
    if (this.batteryVolts > 16) return negative(service, NRC.voltageTooHigh);
    return null;
  }

  request(bytes: Uint8Array): Answer {
    const service = bytes[0];
    switch (service) {
      case 0x10:
        return [this.sessionControl(bytes)];
      case 0x22:
        return [this.readIdentifier(bytes)];
      case 0x27:
        return [this.securityAccess(bytes)];
      case 0x2e:
        if (!this.unlocked) return [negative(service, NRC.securityAccessDenied)];
        return [Uint8Array.of(0x6e, bytes[1], bytes[2])];
      case 0x31:
        return this.routine(bytes);
      case 0x34:
        return [this.requestDownload(bytes)];
      case 0x36:
        return [this.transferData(bytes)];
      case 0x37:
        return [this.transferExit()];
      case 0x11:
        return [this.reset(bytes)];
      case 0x14:
        return [Uint8Array.of(0x54)];
      case 0x23:
        return [this.readMemory(bytes)];
      default:
        return [negative(service, 0x11)];
    }
  }

  private sessionControl(bytes: Uint8Array): Uint8Array {
    const kind = bytes[1];
    const session: Session | undefined =
      kind === 0x01 ? "default" : kind === 0x02 ? "programming" : kind === 0x03 ? "extended" : undefined;
    if (!session) return negative(0x10, NRC.subFunctionNotSupported);
    // The programming session is entered from the extended one, or at once while the bootloader is in charge.
    if (session === "programming" && this.session === "default" && this.applicationValid)
      return negative(0x10, NRC.conditionsNotCorrect);
    if (session !== this.session) {
      this.unlocked = false;
      this.seed = null;
    }
    this.session = session;
    return Uint8Array.of(0x50, kind, 0x00, 0x32, 0x01, 0xf4);
  }

  private readIdentifier(bytes: Uint8Array): Uint8Array {
    if (bytes.length !== 3) return negative(0x22, NRC.incorrectLength);
    const did = (bytes[1] << 8) | bytes[2];
    const name = (Object.keys(DID) as Array<keyof typeof DID>).find((key) => DID[key] === did);
    if (!name) return negative(0x22, NRC.requestOutOfRange);
    return Uint8Array.of(0x62, bytes[1], bytes[2], ...ascii(this.options.identity[name]));
  }

  private securityAccess(bytes: Uint8Array): Uint8Array {
    const level = bytes[1];
    if (this.session === "default") return negative(0x27, NRC.conditionsNotCorrect);
    if (this.options.now() < this.lockedUntil) return negative(0x27, NRC.timeDelayNotExpired);
    if (level === this.options.securityLevel) {
      if (this.unlocked) return Uint8Array.of(0x67, level, 0, 0, 0, 0);
      this.seedCounter = (Math.imul(this.seedCounter, 1103515245) + 12345) >>> 0;
      this.seed = Uint8Array.of(
        this.seedCounter >>> 24,
        (this.seedCounter >>> 16) & 0xff,
        (this.seedCounter >>> 8) & 0xff,
        this.seedCounter & 0xff,
      );
      return Uint8Array.of(0x67, level, ...this.seed);
    }
    if (level === this.options.securityLevel + 1) {
      if (!this.seed) return negative(0x27, NRC.requestSequenceError);
      const expected = computeKey(this.options.seedKeyAlgorithm, this.seed, this.options.secret);
      const given = bytes.subarray(2);
      this.seed = null;
      if (given.length !== expected.length || given.some((b, i) => b !== expected[i])) {
        this.wrongKeys += 1;
        if (this.wrongKeys >= 3) {
          this.lockedUntil = this.options.now() + this.options.lockoutMs;
          this.wrongKeys = 0;
          return negative(0x27, NRC.exceededAttempts);
        }
        return negative(0x27, NRC.invalidKey);
      }
      this.wrongKeys = 0;
      this.unlocked = true;
      return Uint8Array.of(0x67, level);
    }
    return negative(0x27, NRC.subFunctionNotSupported);
  }

  private routine(bytes: Uint8Array): Answer {
    if (bytes[1] !== 0x01) return [negative(0x31, NRC.subFunctionNotSupported)];
    const id = (bytes[2] << 8) | bytes[3];
    if (this.session !== "programming" || !this.unlocked)
      return [negative(0x31, this.unlocked ? NRC.conditionsNotCorrect : NRC.securityAccessDenied)];
    const voltage = this.voltageProblem(0x31);
    if (voltage) return [voltage];
    const ok = (status: number) => Uint8Array.of(0x71, 0x01, bytes[2], bytes[3], status);
    if (id === 0xff00) {
      const number = bytes[4];
      if (!this.options.blocks.some((b) => b.number === number)) return [negative(0x31, NRC.requestOutOfRange)];
      const block = this.blockOf(number);
      this.options.memory.fill(0xff, block.baseAddress, block.baseAddress + block.length);
      this.blockState.set(number, "erased");
      // From the first erase until the dependencies pass again, only the bootloader can run.
      this.applicationValid = false;
      this.dependenciesOk = false;
      return this.pending(0x31, ok(0x00));
    }
    if (id === 0x0202) {
      const number = bytes[4];
      if (!this.options.blocks.some((b) => b.number === number)) return [negative(0x31, NRC.requestOutOfRange)];
      if (this.blockState.get(number) !== "written" && this.blockState.get(number) !== "verified")
        return [negative(0x31, NRC.requestSequenceError)];
      const matches = crc32(this.blockContents(number)) === word(bytes, 5);
      this.blockState.set(number, matches ? "verified" : "erased");
      return this.pending(0x31, ok(matches ? 0x00 : 0x01));
    }
    if (id === 0xff01) {
      this.dependenciesOk = [...this.blockState.values()].every((state) => state === "verified" || state === "intact");
      return this.pending(0x31, ok(this.dependenciesOk ? 0x00 : 0x01));
    }
    return [negative(0x31, NRC.requestOutOfRange)];
  }

  private requestDownload(bytes: Uint8Array): Uint8Array {
    if (this.session !== "programming" || !this.unlocked) return negative(0x34, NRC.securityAccessDenied);
    const voltage = this.voltageProblem(0x34);
    if (voltage) return voltage;
    if (bytes.length !== 11 || bytes[2] !== 0x44) return negative(0x34, NRC.incorrectLength);
    const address = word(bytes, 3);
    const size = word(bytes, 7);
    const block = this.options.blocks.find((b) => b.baseAddress === address && b.length === size);
    if (!block) return negative(0x34, NRC.requestOutOfRange);
    if (this.blockState.get(block.number) !== "erased") return negative(0x34, NRC.uploadDownloadNotAccepted);
    this.download = { block, next: 0x01, offset: 0, lastSeq: null, lastLength: 0 };
    const max = this.options.maxBlockLength;
    return Uint8Array.of(0x74, 0x20, max >>> 8, max & 0xff);
  }

  private transferData(bytes: Uint8Array): Uint8Array {
    if (!this.download) return negative(0x36, NRC.requestSequenceError);
    const voltage = this.voltageProblem(0x36);
    if (voltage) return voltage;
    const seq = bytes[1];
    const data = bytes.subarray(2);
    if (data.length > this.options.maxBlockLength - 2) return negative(0x36, NRC.incorrectLength);
    const download = this.download;
    // The block sent again after its answer was lost: taken again, not written twice.
    if (seq === download.lastSeq && data.length === download.lastLength) return Uint8Array.of(0x76, seq);
    if (seq !== download.next) return negative(0x36, NRC.wrongBlockSequenceCounter);
    if (download.offset + data.length > download.block.length) return negative(0x36, NRC.requestOutOfRange);
    this.options.memory.set(data, download.block.baseAddress + download.offset);
    download.offset += data.length;
    download.lastSeq = seq;
    download.lastLength = data.length;
    download.next = (seq + 1) & 0xff;
    return Uint8Array.of(0x76, seq);
  }

  private transferExit(): Uint8Array {
    if (!this.download) return negative(0x37, NRC.requestSequenceError);
    const { block, offset } = this.download;
    this.download = null;
    if (offset !== block.length) return negative(0x37, NRC.requestSequenceError);
    this.blockState.set(block.number, "written");
    return Uint8Array.of(0x77);
  }

  private reset(bytes: Uint8Array): Uint8Array {
    if (bytes[1] !== 0x01) return negative(0x11, NRC.subFunctionNotSupported);
    this.powerCycle();
    if (this.dependenciesOk) {
      this.applicationValid = true;
      for (const block of this.options.blocks) this.blockState.set(block.number, "intact");
    }
    return Uint8Array.of(0x51, 0x01);
  }

  private readMemory(bytes: Uint8Array): Uint8Array {
    if (bytes.length !== 8 || bytes[1] !== 0x24) return negative(0x23, NRC.incorrectLength);
    const address = word(bytes, 2);
    const size = (bytes[6] << 8) | bytes[7];
    if (size === 0 || size > 0xfff || address + size > this.options.memory.length)
      return negative(0x23, NRC.requestOutOfRange);
    return Uint8Array.of(0x63, ...this.options.memory.subarray(address, address + size));
  }
}
