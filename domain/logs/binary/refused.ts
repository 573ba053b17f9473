/**
 * Binary logs of known loggers whose layout is not public: recognised by content so the
 * uploader is told which logger wrote the file and which export to upload instead.
 */
import { LogParseError } from "../errors";
import { hasBytes, viewOf } from "./bytes";

/** AEM's `.daq` (AEMdata, Infinity and AQ-1 loggers) opens with this banner, then its channel list ("Engine Speed_SRC0"). */
const AEM_DAQ = "EMERALD v";
const GZIP = [0x1f, 0x8b, 0x08];
/** ECUMaster EMU Black's `.emublog`, once unpacked: u32 0x22446082, u32 version, u32 frame count, frames. */
const EMU_FRAMES = 0x22446082;

export function refuseAemDaq(bytes: Uint8Array): void {
  if (
    !hasBytes(bytes, AEM_DAQ) ||
    !/^EMERALD v[\d.]+ file/.test(new TextDecoder("latin1").decode(bytes.subarray(0, 32)))
  )
    return;
  throw new LogParseError(
    "unsupported",
    "An AEM .daq log: its layout is not public, so it cannot be read here. Export it as CSV from AEMdata (File → Export → CSV) and upload that file.",
  );
}

export function isGzip(bytes: Uint8Array): boolean {
  return hasBytes(bytes, GZIP);
}

const EMU_EXPORT =
  "Export it as CSV from the EMU Black client's log viewer (File → Export to CSV) and upload that file.";

/** A gzip stream that unpacks to ECUMaster's frame dump, which names no channels: refused. */
export function refuseEmuBlog(unpacked: Uint8Array): void {
  if (unpacked.length < 12) return;
  const view = viewOf(unpacked);
  const frames = view.getUint32(8, true);
  if (view.getUint32(0, true) !== EMU_FRAMES || frames === 0 || (unpacked.length - 12) % frames !== 0) return;
  throw new LogParseError(
    "unsupported",
    `An ECUMaster EMU .emublog log: it holds ${frames} frames of ${(unpacked.length - 12) / frames} bytes but does not name its channels, so it cannot be read here. ${EMU_EXPORT}`,
  );
}

/** Without a way to unpack it, a gzip stream is refused naming the likely logger. */
export function refuseGzip(): never {
  throw new LogParseError(
    "unsupported",
    `A gzip-compressed file: unpack it and upload the log inside. If it is an ECUMaster EMU .emublog log, it cannot be read here: ${EMU_EXPORT}`,
  );
}
