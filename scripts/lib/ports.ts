/** Ports the test run uses, apart from npm start's (8080, 9099, 4400, 4500) so both can run at once. */
export const TEST_PORTS = {
  emulator: 9199,
  emulatorHub: 4410,
  emulatorLogging: 4510,
  e2eServer: 8181,
} as const;

export const TEST_PROJECT_ID = "demo-tuning-portal";
