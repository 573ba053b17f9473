import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "../../scripts/lib/server-process";
import { collectBlobs } from "../../server/services/blob-collector";
import { removeStaleTempFiles, tempDirOf } from "../../server/services/temp-files";
import { startTestApp, type TestApp } from "./support/harness";

const HOUR = 60 * 60 * 1000;

async function tempFile(dataDir: string, name: string, ageMs: number): Promise<string> {
  await mkdir(tempDirOf(dataDir), { recursive: true });
  const file = path.join(tempDirOf(dataDir), name);
  await writeFile(file, randomBytes(1024));
  const at = new Date(Date.now() - ageMs);
  await utimes(file, at, at);
  return file;
}

const listTemps = async (dataDir: string) => (await readdir(tempDirOf(dataDir)).catch(() => [] as string[])).sort();

describe("temp files of interrupted requests", () => {
  describe("blob collection", () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp("pglite", { REQUEST_TIMEOUT_MS: "60000" });
    });
    afterAll(async () => test?.close());

    it("removes temp files older than the request time-out and keeps younger ones", async () => {
      const { dataDir } = test.app.ctx.config;
      await tempFile(dataDir, "upload-left-by-a-crash", 61_000);
      await tempFile(dataDir, "upload-left-by-a-crash.columns", 2 * HOUR);
      await tempFile(dataDir, "picture-left-by-a-crash", 2 * HOUR);
      await tempFile(dataDir, "upload-in-flight", 5_000);
      const result = await collectBlobs(test.app.ctx);
      expect(result.removedTempFiles).toBe(3);
      expect(await listTemps(dataDir)).toEqual(["upload-in-flight"]);
    });
  });

  it("removeStaleTempFiles answers what it removed, and nothing for a missing folder", async () => {
    const dataDir = path.resolve(".test-data", `temps-${randomBytes(4).toString("hex")}`);
    try {
      expect(await removeStaleTempFiles(dataDir, 1000)).toEqual({ removed: 0, removedBytes: 0 });
      await tempFile(dataDir, "a", 2000);
      await tempFile(dataDir, "b", 0);
      expect(await removeStaleTempFiles(dataDir, 1000)).toEqual({ removed: 1, removedBytes: 1024 });
      expect(await listTemps(dataDir)).toEqual(["b"]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe("a server killed mid-upload", () => {
    const dataDir = path.resolve(".test-data", `killed-${randomBytes(4).toString("hex")}`);
    const portFile = path.join(dataDir, "port");
    const servers: ChildProcess[] = [];
    let stderr = "";

    /** The real server process, as npm start runs it. */
    async function startServer(): Promise<{ child: ChildProcess; port: number }> {
      await rm(portFile, { force: true });
      const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
        stdio: ["ignore", "ignore", "pipe"],
        env: {
          ...process.env,
          NODE_ENV: "test",
          PORT: "0",
          PORT_FILE: portFile,
          DATA_DIR: dataDir,
          DIST_DIR: path.resolve(".test-data/no-dist"),
          LOG_LEVEL: "warn",
          FIREBASE_AUTH_EMULATOR_HOST: inject("emulatorHost"),
          FIREBASE_PROJECT_ID: inject("projectId"),
        },
      });
      child.stderr!.on("data", (chunk) => (stderr += chunk));
      servers.push(child);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
        const port = existsSync(portFile) ? Number(readFileSync(portFile, "utf8")) : 0;
        if (port > 0) {
          const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null);
          if (health?.ok) return { child, port };
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`the server did not start: ${stderr}`);
    }

    const exited = (child: ChildProcess) =>
      new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve),
      );

    async function signUp(): Promise<string> {
      const response = await fetch(
        `http://${inject("emulatorHost")}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test-api-key`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: `killed-${randomBytes(5).toString("hex")}@example.test`,
            password: "test-password-1",
            returnSecureToken: true,
          }),
        },
      );
      return ((await response.json()) as { idToken: string }).idToken;
    }

    afterAll(async () => {
      for (const child of servers) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await Promise.all(servers.map(exited));
      await rm(dataDir, { recursive: true, force: true });
    });

    it("leaves the partial upload behind, and the next start removes it once it is older than the time-out", {
      timeout: 120_000,
    }, async () => {
      const first = await startServer();
      const token = await signUp();

      // A large data log, of which only the first megabytes are sent before the process dies.
      const boundary = `----killed${randomBytes(8).toString("hex")}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.csv"\r\nContent-Type: text/csv\r\n\r\nTime,RPM\n`,
      );
      const request = http.request({
        host: "127.0.0.1",
        port: first.port,
        method: "POST",
        path: "/api/v1/data-logs",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(100 * 1024 * 1024),
        },
      });
      request.on("error", () => {});
      request.write(head);
      const rows = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `${i / 10},${1000 + (i % 5000)}\n`).join(""));
      let partial: string | undefined;
      for (let i = 0; i < 200 && !partial; i++) {
        request.write(rows);
        await new Promise((resolve) => setTimeout(resolve, 50));
        for (const name of await listTemps(dataDir)) {
          if (name.startsWith("upload-") && (await stat(path.join(tempDirOf(dataDir), name))).size > 1024 * 1024)
            partial = name;
        }
      }
      expect(partial, "the upload streams to a temp file").toBeDefined();

      first.child.kill("SIGKILL");
      await exited(first.child);
      request.destroy();
      expect(await listTemps(dataDir), "kill -9 leaves the partial file").toContain(partial);

      // Restarted at once, the file may still belong to an upload within its time-out: kept.
      let second = await startServer();
      expect(await listTemps(dataDir)).toContain(partial);
      second.child.kill("SIGTERM");
      await exited(second.child);

      // Once older than the request time-out (120 s by default) it belongs to nobody; a younger one may.
      const longAgo = new Date(Date.now() - 121_000);
      await utimes(path.join(tempDirOf(dataDir), partial!), longAgo, longAgo);
      const young = await tempFile(dataDir, "upload-of-another-process", 30_000);
      second = await startServer();
      expect(await listTemps(dataDir)).toEqual([path.basename(young)]);
      second.child.kill("SIGTERM");
      expect(await exited(second.child)).toBe(0);
    });
  });
});
