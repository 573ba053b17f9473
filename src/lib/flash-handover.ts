/**
 * Handing a flash over to the phone app: the page cannot talk to the car, so it shows a QR code
 * and a link the app opens (`tuningportal://flash?…`). The app then runs the pre-flight with the
 * car's live values (POST /user-vehicles/{id}/flash-authentication) and reports the session,
 * which the page follows on the vehicle's event stream.
 */
export const APP_SCHEME = "tuningportal";

export interface Handover {
  vehicleId: string;
  kind: "tune" | "stock";
  bakedTuneFileId?: string;
  /** A recovery names the failed session, and for a resume the block it restarts at. */
  recoversId?: string;
  resumeFromBlock?: number;
}

export function flashDeepLink(handover: Handover): string {
  const query = new URLSearchParams({ vehicle: handover.vehicleId, kind: handover.kind });
  if (handover.bakedTuneFileId) query.set("bake", handover.bakedTuneFileId);
  if (handover.recoversId) query.set("recovers", handover.recoversId);
  if (handover.resumeFromBlock !== undefined) query.set("resumeFromBlock", String(handover.resumeFromBlock));
  return `${APP_SCHEME}://flash?${query}`;
}

/** What the app reads back from a link: null when it is not a flash link. */
export function parseFlashDeepLink(link: string): Handover | null {
  const prefix = `${APP_SCHEME}://flash?`;
  if (!link.startsWith(prefix)) return null;
  const query = new URLSearchParams(link.slice(prefix.length));
  const vehicleId = query.get("vehicle");
  const kind = query.get("kind");
  if (!vehicleId || (kind !== "tune" && kind !== "stock")) return null;
  const resume = query.get("resumeFromBlock");
  return {
    vehicleId,
    kind,
    ...(query.get("bake") && { bakedTuneFileId: query.get("bake") as string }),
    ...(query.get("recovers") && { recoversId: query.get("recovers") as string }),
    ...(resume !== null && { resumeFromBlock: Number(resume) }),
  };
}
