import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { type Database, openDatabase } from "../../server/db/connection";
import { productionMailEnv } from "./support/harness";

const contact = {
  name: "Sam Driver",
  email: "sam@example.test",
  topic: "vehicle-support",
  vehicle: "",
  message: "Is the MQB Simos 18 supported?",
};

/**
 * A production-mode server (where Fastify used to believe every X-Forwarded-For), without the
 * Auth emulator, which production refuses: the routes used here are public.
 */
async function productionApp(trustProxy?: string): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const config = loadConfig({
    NODE_ENV: "production",
    ...productionMailEnv(),
    DATA_DIR: `.test-data/api-${randomBytes(4).toString("hex")}`,
    DIST_DIR: ".test-data/no-dist",
    SECRETS_KEY: randomBytes(32).toString("base64"),
    ...(trustProxy && { TRUST_PROXY: trustProxy }),
  });
  const database: Database = await openDatabase({ databaseUrl: undefined, pgliteDir: "memory://" });
  await database.migrate();
  const app = await buildApp(config, { database, logger: false });
  app.get("/api/v1/__ip", { config: { public: true } }, async (request) => ({ ip: request.ip }));
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

describe("forwarded addresses in production", () => {
  describe("with no TRUST_PROXY", () => {
    let server: Awaited<ReturnType<typeof productionApp>>;
    beforeAll(async () => {
      server = await productionApp();
    });
    afterAll(async () => server?.close());

    it("takes the connecting address, whatever X-Forwarded-For says", async () => {
      const response = await server.app.inject({
        method: "GET",
        url: "/api/v1/__ip",
        remoteAddress: "203.0.113.7",
        headers: { "x-forwarded-for": "198.51.100.1" },
      });
      expect(response.json()).toEqual({ ip: "203.0.113.7" });
    });

    it("rate-limits one client that sends a different X-Forwarded-For each time", async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const response = await server.app.inject({
          method: "POST",
          url: "/api/v1/contact-requests",
          payload: contact,
          remoteAddress: "203.0.113.8",
          headers: { "x-forwarded-for": `198.51.100.${i + 10}` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    });
  });

  describe("with TRUST_PROXY naming the proxy", () => {
    let server: Awaited<ReturnType<typeof productionApp>>;
    beforeAll(async () => {
      server = await productionApp("10.1.0.0/16, 192.0.2.5");
    });
    afterAll(async () => server?.close());

    const ipSeen = async (remoteAddress: string, forwardedFor: string) =>
      (
        await server.app.inject({
          method: "GET",
          url: "/api/v1/__ip",
          remoteAddress,
          headers: { "x-forwarded-for": forwardedFor },
        })
      ).json().ip;

    it("believes X-Forwarded-For from the configured proxies only", async () => {
      expect(await ipSeen("10.1.2.3", "198.51.100.1")).toBe("198.51.100.1");
      expect(await ipSeen("192.0.2.5", "198.51.100.2")).toBe("198.51.100.2");
      expect(await ipSeen("203.0.113.9", "198.51.100.3"), "a client that connects directly").toBe("203.0.113.9");
    });

    it("takes the first address the proxy did not add itself, not one the client prepended", async () => {
      expect(await ipSeen("10.1.2.3", "198.51.100.66, 198.51.100.4")).toBe("198.51.100.4");
    });

    it("rate-limits the clients behind the proxy one by one", async () => {
      const send = (client: string) =>
        server.app.inject({
          method: "POST",
          url: "/api/v1/contact-requests",
          payload: contact,
          remoteAddress: "10.1.0.1",
          headers: { "x-forwarded-for": client },
        });
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await send("198.51.100.20")).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
      expect((await send("198.51.100.21")).statusCode, "another client behind the same proxy").toBe(201);
    });
  });
});
