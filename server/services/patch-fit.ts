/** Whether a patch fits the firmware it names: inside its images, and its base bytes where a stock file is known. */
import type { Patch } from "../../contracts/tune-definition";
import { patchState } from "../../domain/tune";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import { invalid, Refusal } from "./errors";
import { firmwareRecord } from "./firmware-support/reads";
import { lockFirmwareIds } from "./firmware-support/references";
import { readImage } from "./tune-files";

/**
 * A patch must fit every firmware it names, and where that firmware has a
 * stock file its base bytes must be there (or the patch already applied):
 * a patch whose base does not match stock is for another firmware.
 */
export async function checkPatchAgainstFirmware(
  ctx: AppContext,
  tx: Tx,
  patch: Patch,
  path = "entries",
): Promise<void> {
  await lockFirmwareIds(tx, patch.firmwareIds);
  for (const firmwareId of patch.firmwareIds) {
    const record = await firmwareRecord(tx, firmwareId);
    patch.entries.forEach((entry, i) => {
      if (entry.address + entry.patch.length / 2 > record.imageSize) {
        const message = `entry at 0x${entry.address.toString(16).toUpperCase()} runs past the end of ${firmwareId} images (${record.imageSize} bytes)`;
        throw invalid("Invalid body", message, [{ path: `${path}.${i}.address`, message }]);
      }
    });
    if (record.stockSha256) {
      const state = patchState(await readImage(ctx, record.stockSha256), patch);
      if (state.state === "conflict") {
        const addresses = state.conflicts.map((a) => `0x${a.toString(16).toUpperCase()}`);
        const message = `the base bytes do not match ${firmwareId}'s stock file at ${addresses.join(", ")}`;
        throw new Refusal("unprocessable", "Patch does not fit the firmware", message, [
          { path, message, firmwareId, addresses: state.conflicts },
        ]);
      }
    }
  }
}
