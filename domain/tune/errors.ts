/**
 * One error type for every refusal of the tune domain, so that routes can map
 * it to a 4xx without parsing messages: `code` says what kind of refusal it is
 * and `details` carries what a client may show (addresses, names, values).
 */
export type TuneErrorCode =
  | "out_of_bounds"
  | "invalid_value"
  | "round_trip"
  | "checksum_invalid"
  | "checksum_unstable"
  | "patch_conflict"
  | "patch_overlap"
  | "patch_firmware"
  | "image_mismatch"
  | "xdf_invalid"
  | "definition_invalid";

export class TuneError extends Error {
  readonly code: TuneErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: TuneErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "TuneError";
    this.code = code;
    this.details = details;
  }
}

/** `0x6851CE`: the way tuners write addresses. */
export function hexAddress(address: number): string {
  return `${address < 0 ? "-" : ""}0x${Math.abs(address).toString(16).toUpperCase()}`;
}
