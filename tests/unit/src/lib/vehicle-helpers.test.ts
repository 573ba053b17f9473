import { describe, expect, it } from "vitest";
import type { FlashLog, FlashLogStep } from "../../../../contracts/flash-logs";
import type { Snapshot } from "../../../../contracts/user-vehicles";
import { flashDeepLink, parseFlashDeepLink } from "../../../../src/lib/flash-handover";
import { applyFlashEvent, NO_PROGRESS, progressLabel, stepRows } from "../../../../src/lib/flash-progress";
import { snapshotChanges } from "../../../../src/lib/snapshot-diff";

const snapshot = (overrides: Partial<Snapshot>): Snapshot => ({
  id: "s",
  vehicleId: "v",
  kind: "connect",
  flashLogId: null,
  vin: "WVWZZZAUZKW000001",
  ecuSerial: "E1",
  softwareId: "SW1",
  hardwareNumber: null,
  bootloaderVersion: "BL1",
  calibrationId: "CAL1",
  firmwareId: "FW1",
  faultCodes: ["P0299", "P0101"],
  batteryVolts: 12.6,
  flashCounter: 3,
  programmingAttempts: 3,
  adapter: null,
  appVersion: "2.4.0",
  recordedAt: "2026-11-01T10:00:00Z",
  ...overrides,
});

describe("snapshot changes", () => {
  it("lists only the fields that changed, in the page's order, with readable values", () => {
    const before = snapshot({});
    const after = snapshot({
      calibrationId: "CAL2",
      faultCodes: ["P0101", "P0299"],
      batteryVolts: 12.14,
      flashCounter: 4,
    });
    expect(snapshotChanges(before, after)).toEqual([
      { field: "calibrationId", label: "Calibration", before: "CAL1", after: "CAL2" },
      { field: "batteryVolts", label: "Battery", before: "12.6 V", after: "12.1 V" },
      { field: "flashCounter", label: "Flash counter", before: "3", after: "4" },
    ]);
    expect(snapshotChanges(before, snapshot({ faultCodes: [] }))).toEqual([
      { field: "faultCodes", label: "Fault codes", before: "P0101, P0299", after: "none" },
    ]);
    expect(snapshotChanges(before, snapshot({ hardwareNumber: "HW" }))[0]).toMatchObject({ before: "—", after: "HW" });
  });
});

describe("flash handover link", () => {
  it("round-trips a tune flash, a resume and a return to stock", () => {
    for (const handover of [
      { vehicleId: "v1", kind: "tune" as const, bakedTuneFileId: "b1" },
      { vehicleId: "v1", kind: "tune" as const, bakedTuneFileId: "b1", recoversId: "f1", resumeFromBlock: 3 },
      { vehicleId: "v1", kind: "stock" as const, recoversId: "f1" },
    ]) {
      const link = flashDeepLink(handover);
      expect(link.startsWith("tuningportal://flash?vehicle=v1")).toBe(true);
      expect(parseFlashDeepLink(link)).toEqual(handover);
    }
    expect(parseFlashDeepLink("https://example.test/flash?vehicle=v1&kind=tune")).toBeNull();
    expect(parseFlashDeepLink("tuningportal://flash?vehicle=v1&kind=boat")).toBeNull();
  });
});

const log = (overrides: Partial<FlashLog>): FlashLog =>
  ({ id: "l1", result: "running", progress: null, flashedAt: "2026-01-01T10:00:00.000Z", ...overrides }) as FlashLog;
const step = (seq: number, overrides: Partial<FlashLogStep> = {}): FlashLogStep =>
  ({
    seq,
    step: "block",
    block: 1,
    percent: seq * 10,
    status: "ok",
    at: "",
    durationMs: null,
    retries: 0,
    request: null,
    response: null,
    nrc: null,
    nrcName: null,
    message: "",
    ...overrides,
  }) as FlashLogStep;

describe("flash progress from the event stream", () => {
  it("keeps each session's latest state and its steps in order, each step once", () => {
    let state = applyFlashEvent(NO_PROGRESS, { type: "flash-log", log: log({}) });
    expect(state.latestId).toBe("l1");
    state = applyFlashEvent(state, { type: "flash-step", flashLogId: "l1", step: step(2) });
    state = applyFlashEvent(state, { type: "flash-step", flashLogId: "l1", step: step(1) });
    state = applyFlashEvent(state, { type: "flash-step", flashLogId: "l1", step: step(2) });
    expect(state.steps.l1.map((s) => s.seq)).toEqual([1, 2]);
    state = applyFlashEvent(state, { type: "flash-log", log: log({ result: "success" }) });
    expect(state.logs.l1.result).toBe("success");
    expect(state.latestId).toBe("l1");
    state = applyFlashEvent(state, { type: "flash-log", log: log({ id: "l2" }) });
    expect(state.latestId).toBe("l2");
  });

  it("follows a recovery to its end when it also tells of the older session it recovered", () => {
    const stock = log({ id: "stock", kind: "stock", flashedAt: "2026-01-01T11:00:00.000Z" });
    let state = applyFlashEvent(NO_PROGRESS, { type: "flash-log", log: stock });
    // The recovery ends: its own news, then the failed session's, which this page never saw before.
    state = applyFlashEvent(state, { type: "flash-log", log: { ...stock, result: "success" } });
    state = applyFlashEvent(state, { type: "flash-log", log: log({ id: "failed", result: "recovered" }) });
    expect(state.latestId).toBe("stock");
    expect(state.logs.failed.result).toBe("recovered");
  });

  it("counts the sessions that ended while the page listened, once each", () => {
    let state = applyFlashEvent(NO_PROGRESS, { type: "flash-log", log: log({}) });
    expect(state.endedVersion).toBe(0);
    state = applyFlashEvent(state, { type: "flash-log", log: log({ result: "success" }) });
    state = applyFlashEvent(state, { type: "flash-log", log: log({ result: "success" }) });
    expect(state.endedVersion).toBe(1);
  });

  it("keeps the app's latest pre-flight beside the sessions, a later one replacing it", () => {
    const refused = {
      passed: false,
      kind: "tune" as const,
      failed: "battery" as const,
      checks: [{ check: "battery" as const, ok: false, message: "11.4 V is below 12.0 V" }],
      at: "2026-01-01T10:00:00.000Z",
    };
    let state = applyFlashEvent(NO_PROGRESS, { type: "flash-log", log: log({}) });
    state = applyFlashEvent(state, { type: "preflight", preflight: refused });
    expect(state.preflight).toEqual(refused);
    expect(state.latestId).toBe("l1");
    const passed = {
      ...refused,
      passed: true,
      failed: null,
      checks: [{ check: "battery" as const, ok: true, message: "12.6 V" }],
      at: "2026-01-01T10:01:00.000Z",
    };
    expect(applyFlashEvent(state, { type: "preflight", preflight: passed }).preflight).toEqual(passed);
  });

  it("shows each step once in the step table, its progress rows replaced by the report that ends it", () => {
    const rows = stepRows([
      step(1, { step: "erasing", status: "started", percent: null }),
      step(2, { step: "erasing", status: "ok", percent: null, durationMs: 1200, request: "3101FF0001" }),
      step(3, { status: "started", percent: 25 }),
      step(4, { status: "started", percent: 50 }),
      step(5, { status: "failed", percent: 50, nrc: 0x72, response: "7F3672" }),
      step(6, { step: "erasing", status: "started", percent: null }),
    ]);
    expect(rows.map((row) => [row.seq, row.step, row.status])).toEqual([
      [2, "erasing", "ok"],
      [5, "block", "failed"],
      [6, "erasing", "started"],
    ]);
    expect(rows[0]).toMatchObject({ durationMs: 1200, request: "3101FF0001" });
  });

  it("describes where a session is", () => {
    expect(progressLabel(log({}))).toBe("starting");
    expect(progressLabel(log({ progress: { step: "block", block: 2, percent: 44.6, status: "ok" } }))).toBe(
      "block 2 · 45 %",
    );
    expect(
      progressLabel(log({ progress: { step: "security-access", block: null, percent: null, status: "started" } })),
    ).toBe("security-access");
    expect(progressLabel(log({ result: "failed" }))).toBe("failed");
  });
});
