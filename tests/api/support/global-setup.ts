import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { isAuthEmulatorUp, startTestEmulator } from "../../../scripts/lib/emulator";
import { startMailCatcher } from "../../../scripts/lib/mail-catcher";
import { TEST_PROJECT_ID } from "../../../scripts/lib/ports";
import { prepareMigratedDatabases } from "./test-databases";

declare module "vitest" {
  export interface ProvidedContext {
    emulatorHost: string;
    projectId: string;
    /** The local inbox every test app sends to (SMTP_URL), and its JSON API. */
    smtpUrl: string;
    mailInboxUrl: string;
    /** Made once per run (tests/api/support/test-databases.ts): the migrated PostgreSQL database each test app's is copied from, and the file of a migrated PGlite data directory. */
    postgresTemplate: string;
    pgliteDataDir: string;
  }
}

/**
 * The API suites need the Auth emulator: the one `npm test` started (FIREBASE_AUTH_EMULATOR_HOST), or
 * one of their own; and a local inbox their apps send mail to, always their own (any free port).
 */
export default async function setup(project: TestProject) {
  // This run's files (the migrated PGlite data directory, an emulator of its own), removed at the end.
  const workDir = path.resolve(".test-data", `vitest-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const running =
    host && (await isAuthEmulatorUp(host)) ? null : await startTestEmulator(path.join(workDir, "auth-emulator"));
  project.provide("emulatorHost", running?.host ?? host!);
  project.provide("projectId", TEST_PROJECT_ID);
  const inbox = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  project.provide("smtpUrl", inbox.smtpUrl);
  project.provide("mailInboxUrl", inbox.webUrl);
  const pgliteDataDir = path.join(workDir, "pglite-migrated.tar");
  const databases = await prepareMigratedDatabases(pgliteDataDir);
  project.provide("postgresTemplate", databases.postgresTemplate);
  project.provide("pgliteDataDir", pgliteDataDir);
  return async () => {
    await databases.drop();
    await inbox.stop();
    await running?.stop();
    rmSync(workDir, { recursive: true, force: true });
  };
}
