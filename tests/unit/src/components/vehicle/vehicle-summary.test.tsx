// @vitest-environment jsdom
/** The vehicle card: the car the catalogue knows it as, and its firmware on one line. */
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { Vehicle } from "../../../../../contracts/user-vehicles";
import { VehicleSummary } from "../../../../../src/components/vehicle/vehicle-summary";

window.matchMedia ??= ((query: string) => ({
  media: query,
  matches: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
})) as unknown as typeof window.matchMedia;

afterEach(cleanup);

const vehicle = (overrides: Partial<Vehicle>): Vehicle =>
  ({
    id: "v1",
    ownerUid: "u1",
    ownerName: null,
    ownerEmail: null,
    name: "Demo Motors Hatchback 2.0 turbo",
    vin: "WDEMZZZ0000000001",
    ecu: { softwareId: "DEMO-ECU-0001", hardwareNumber: "DEMO-HW-1", ecuSerial: "S1", bootloaderVersion: "BL1" },
    firmwareId: "DEMO-ECU-0001",
    catalogue: { make: "Demo Motors", model: "Hatchback", engine: "2.0 turbo" },
    support: { state: "supported", reason: null, ecuFamily: "DEMO", flashing: true, supportRequestId: null },
    stockDump: null,
    currentTune: null,
    lastFlash: null,
    lastConnectedAt: null,
    lastBatteryVolts: null,
    ...overrides,
  }) as Vehicle;

const show = (v: Vehicle) =>
  render(
    <MemoryRouter>
      <VehicleSummary vehicle={v} />
    </MemoryRouter>,
  );

describe("the vehicle card", () => {
  it("names the car by its catalogue record and shows its firmware once when the ECU's software id is it", () => {
    show(vehicle({}));
    expect(screen.getByTestId("catalogue-car").textContent).toBe("Demo Motors Hatchback · 2.0 turbo");
    expect(screen.getAllByText("DEMO-ECU-0001")).toHaveLength(1);
    expect(screen.queryByText("ECU software")).toBeNull();
  });

  it("shows the ECU's software id beside the firmware when they differ", () => {
    show(vehicle({ firmwareId: null, catalogue: null }));
    expect(screen.getByText("ECU software")).toBeTruthy();
    expect(screen.getByTestId("catalogue-car").textContent).toBe("not in the catalogue");
  });
});
