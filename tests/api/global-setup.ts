import path from "node:path";
import type { TestProject } from "vitest/node";
import { isAuthEmulatorUp, startAuthEmulator } from "../../scripts/lib/emulator";
import { TEST_PORTS, TEST_PROJECT_ID } from "../../scripts/lib/ports";

declare module "vitest" {
  export interface ProvidedContext {
    emulatorHost: string;
    projectId: string;
  }
}

/** The API suites need the Auth emulator: reuse the one `npm test` started, or start one for this run. */
export default async function setup(project: TestProject) {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST || `127.0.0.1:${TEST_PORTS.emulator}`;
  const running = (await isAuthEmulatorUp(host))
    ? null
    : await startAuthEmulator({
        projectId: TEST_PROJECT_ID,
        port: TEST_PORTS.emulator,
        hubPort: TEST_PORTS.emulatorHub,
        loggingPort: TEST_PORTS.emulatorLogging,
        workDir: path.resolve(".test-data/auth-emulator"),
      });
  project.provide("emulatorHost", running?.host ?? host);
  project.provide("projectId", TEST_PROJECT_ID);
  return async () => {
    await running?.stop();
  };
}
