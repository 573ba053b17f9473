import { createServer } from "node:net";

/** Ports the test run prefers, apart from npm start's (8080, 9099, 4400, 4500, 1025, 1080) so both can run at once. */
export const TEST_PORTS = {
  emulator: 9199,
  emulatorHub: 4410,
  emulatorLogging: 4510,
  mailSmtp: 1125,
  mailWeb: 1180,
} as const;

/** npm start's local inbox (scripts/lib/mail-catcher): SMTP and its web page, taken when free. */
export const START_MAIL_PORTS = { smtp: 1025, web: 1080 } as const;

/** `npm run cluster`'s S3-compatible server (scripts/lib/object-storage.ts), taken when free: s3rver's own default. */
export const START_OBJECT_STORAGE_PORT = 4568;

export const TEST_PROJECT_ID = "demo-tuning-portal";

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The preferred port when it is free, else one the system hands out: two test runs on one machine do not collide. */
export async function freePort(preferred: number): Promise<number> {
  return (await isFree(preferred)) ? preferred : anyFreePort();
}
