/**
 * How the demo firmware is flashed: its UDS profile, its ECU's serial and the security-access
 * secret the demo car's ECU and the portal share. The seed writes them into the catalogue; the
 * virtual car (server/seed/virtual-car/) plays the same ECU.
 */
export const DEMO_ECU_SERIAL = "DEMO-ECU-000001";
/** The demo car's ECU as the app reads it (its software id is the demo firmware's id). */
export const DEMO_ECU = { ecuSerial: DEMO_ECU_SERIAL, hardwareNumber: "DEMO-HW-1", bootloaderVersion: "DEMO-BL-2" };
export const DEMO_FLASH_SECRET = "0x5EED5EED";
export const DEMO_FLASHING_PROFILE = {
  securityLevel: 0x11,
  seedKeyAlgorithm: "xor-rotate-32",
  requestCanId: 0x7e0,
  responseCanId: 0x7e8,
  p2TimeoutMs: 50,
  p2StarTimeoutMs: 5000,
  minBatteryVolts: 12,
};
