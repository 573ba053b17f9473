/**
 * The phone app as the portal meets it: it reads the car (the demo car's identity), runs the
 * pre-flight with the seed the ECU gave it, starts a session with the grant and reports each
 * step a moment apart, then ends the session. The page under test follows it live.
 */
import { type APIRequestContext, expect } from "@playwright/test";
import { DEMO_ECU_SERIAL } from "../../../server/seed/flashing";
import { generateDemo } from "../../../server/seed/generator";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "../../../server/seed/tunes";

const demo = generateDemo(DEMO_TUNE_OPTIONS);
const identity = { vin: DEMO_VIN, ecu: { softwareId: demo.firmware.firmwareId, ecuSerial: DEMO_ECU_SERIAL } };

export interface FlashRequest {
  vehicleId: string;
  kind: "tune" | "stock";
  bakedTuneFileId?: string;
  sha256: string;
  recoversId?: string;
  /** The transfer fails with 0x72 at this percent of the block. */
  failAtPercent?: number;
}

export class PhoneApp {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
    private readonly stepDelayMs = 400,
  ) {}

  private async post(url: string, data: object) {
    const response = await this.request.post(`/api/v1${url}`, {
      headers: { authorization: `Bearer ${this.token}` },
      data,
    });
    expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
    return response.json();
  }

  /** Only the pre-flight, as the app asks it with the battery it measures; answers the HTTP status. */
  async preflight(flash: FlashRequest, batteryVolts: number): Promise<number> {
    const response = await this.request.post(`/api/v1/user-vehicles/${flash.vehicleId}/flash-authentication`, {
      headers: { authorization: `Bearer ${this.token}` },
      data: {
        kind: flash.kind,
        ...(flash.bakedTuneFileId && { bakedTuneFileId: flash.bakedTuneFileId }),
        ...identity,
        batteryVolts,
        sha256: flash.sha256,
        seed: "0A1B2C3D",
      },
    });
    return response.status();
  }

  /** A whole flash; answers the session's id. */
  async flash(flash: FlashRequest): Promise<string> {
    const { vehicleId } = flash;
    const granted = await this.post(`/user-vehicles/${vehicleId}/flash-authentication`, {
      kind: flash.kind,
      ...(flash.bakedTuneFileId && { bakedTuneFileId: flash.bakedTuneFileId }),
      ...identity,
      batteryVolts: 12.6,
      sha256: flash.sha256,
      seed: "0A1B2C3D",
    });
    const session = await this.post(`/user-vehicles/${vehicleId}/flash-logs`, {
      grant: granted.grant.token,
      ...identity,
      adapter: { kind: "virtual", firmware: "1.0" },
      appVersion: "2.4.0",
      batteryVolts: 12.6,
      ...(flash.recoversId && { recoversId: flash.recoversId }),
    });
    // As the app's flasher reports them: a step's end carries its duration and its last exchange.
    const steps: Array<Record<string, unknown>> = [
      { step: "setup", status: "ok", durationMs: 0 },
      { step: "connecting", status: "ok", durationMs: 120, request: "1002", response: "5002" },
      { step: "security-access", status: "ok", durationMs: 240, request: "2711", response: "67110A1B2C3D" },
      { step: "erasing", block: 1, status: "started" },
      { step: "erasing", block: 1, status: "ok", durationMs: 1800, request: "3101FF0001", response: "7101FF0000" },
    ];
    for (const percent of [25, 50, 75, 100]) {
      if (flash.failAtPercent !== undefined && percent > flash.failAtPercent) {
        steps.push({
          step: "block",
          block: 1,
          percent: flash.failAtPercent,
          status: "failed",
          nrc: 0x72,
          request: "36",
          response: "7F3672",
        });
        break;
      }
      steps.push({ step: "block", block: 1, percent, status: percent === 100 ? "ok" : "started" });
    }
    if (flash.failAtPercent === undefined)
      steps.push({ step: "verifying", status: "ok" }, { step: "reset", status: "ok" }, { step: "done", status: "ok" });
    for (const [i, step] of steps.entries()) {
      await this.post(`/user-vehicles/${vehicleId}/flash-logs/${session.id}/steps`, {
        steps: [{ seq: i + 1, at: new Date().toISOString(), ...step }],
      });
      await new Promise((resolve) => setTimeout(resolve, this.stepDelayMs));
    }
    const failed = flash.failAtPercent !== undefined;
    await this.post(
      `/user-vehicles/${vehicleId}/flash-logs/${session.id}/end`,
      failed
        ? { result: "failed", message: "0x72 at block 1" }
        : { result: "success", ecu: identity.ecu, batteryVolts: 12.5 },
    );
    return session.id;
  }
}
