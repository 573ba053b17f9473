/** The domain's refusals (TuneError) as HTTP errors. */
import { TuneError } from "../../domain/tune";
import { HttpError } from "../errors";

/** Refusals of the domain by kind: a patch clash is a conflict with the image, the rest is input the client can fix. */
const STATUS: Record<TuneError["code"], number> = {
  out_of_bounds: 400,
  invalid_value: 400,
  round_trip: 400,
  xdf_invalid: 400,
  definition_invalid: 400,
  patch_overlap: 400,
  patch_conflict: 409,
  patch_firmware: 422,
  image_mismatch: 422,
  checksum_invalid: 422,
  checksum_unstable: 422,
};

const TITLES: Record<TuneError["code"], string> = {
  out_of_bounds: "Out of bounds",
  invalid_value: "Invalid value",
  round_trip: "Value does not round-trip",
  xdf_invalid: "Invalid XDF",
  definition_invalid: "Invalid definition",
  patch_overlap: "Patches overlap",
  patch_conflict: "Patch conflict",
  patch_firmware: "Patch is for another firmware",
  image_mismatch: "Wrong image",
  checksum_invalid: "Checksum does not verify",
  checksum_unstable: "Checksums do not settle",
};

export function tuneHttpError(error: TuneError): HttpError {
  return new HttpError(STATUS[error.code], TITLES[error.code], error.message, { code: error.code, ...error.details });
}

/** Runs domain code; a TuneError becomes its 4xx, anything else stays a 500. */
export async function domain<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TuneError) throw tuneHttpError(error);
    throw error;
  }
}
