/**
 * Flash logs (spec: GET and POST /user-vehicles/{id}/flash-logs): the app
 * reports each flash of a vehicle's ECU, so a customer sees what is on the
 * car and a dealer what was written, when, and whether it finished.
 */
import { z } from "zod";
import { storable } from "./list-query";

export const flashResults = ["success", "failed", "aborted"] as const;
export type FlashResult = (typeof flashResults)[number];

export const flashLogCreateSchema = z
  .strictObject({
    /** The baked file that was written; leave out when the vehicle's own stock read was written back. */
    bakedTuneFileId: z.uuid("bakedTuneFileId must be a baked tune file's id").optional(),
    /** SHA-256 of the bytes written, as the app computed it: checked against the bake or the stock read. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "sha256 must be 64 hexadecimal digits")
      .transform((value) => value.toLowerCase())
      .optional(),
    result: z.enum(flashResults, { error: `result must be one of ${flashResults.join(", ")}` }),
    /** What went wrong, as the app saw it (a negative response code, a lost connection). */
    message: z.string().trim().max(2000, "message is at most 2000 characters").default(""),
    durationMs: z.number().int().min(0).max(24 * 3600 * 1000).optional(),
    /** When the flash ended, if the app reports it later than it happened (offline). */
    flashedAt: z.iso
      .datetime({ offset: true, error: "flashedAt must be an ISO date-time" })
      .refine((v) => storable("timestamp", v), "flashedAt must be in the years 0001 to 9999")
      .optional(),
  })
  .refine((value) => value.bakedTuneFileId !== undefined || value.sha256 !== undefined, {
    message: "send bakedTuneFileId, or sha256 when the stock read was written back",
    path: ["bakedTuneFileId"],
  });
export type FlashLogCreate = z.input<typeof flashLogCreateSchema>;

export interface FlashLog {
  id: string;
  vehicleId: string;
  /** Null for a stock restore, or once the bake was deleted (the log stays). */
  bakedTuneFileId: string | null;
  tuneFileId: string | null;
  tuneTitle: string | null;
  tuneVersion: number | null;
  /** "tune" wrote a bake, "stock" the vehicle's own read. */
  kind: "tune" | "stock";
  sha256: string;
  result: FlashResult;
  message: string;
  durationMs: number | null;
  flashedAt: string;
  reportedBy: string;
}
