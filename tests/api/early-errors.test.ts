import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../server/seed/generator";
import { createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "LONGIDS64K", seed: 5 });
const renamed =
  demo.firmware.definition.items.find((item) => item.kind === "flag") ?? demo.firmware.definition.items.at(-1)!;
/** The longest id a definition item may have. */
const longItemId = `m_${"x".repeat(126)}`;
const definition = {
  ...demo.firmware.definition,
  items: demo.firmware.definition.items.map((item) => (item.id === renamed.id ? { ...item, id: longItemId } : item)),
};

/** Headers helmet puts on every routed answer; the refusals before routing must carry the same. */
const SECURITY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Through a real socket: inject does not go through Node's HTTP parser or Fastify's router refusals the same way. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, headers, agent: false }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

describe("refusals before routing", () => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let dealer: TestUser;
  let port: number;
  let tuneId: string;
  let routed: Answer;
  const { call, upload, storeFirmware } = requestsTo(() => app);

  beforeAll(async () => {
    test = await startTestApp("pglite");
    app = test.app;
    [admin, dealer] = await createUsers(test, ["admin", "dealer"]);
    await storeFirmware(admin, demo, { overrides: { definition } });
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Long ids" });
    expect(tune.statusCode, tune.body).toBe(201);
    tuneId = tune.json().id;
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
    routed = await get(port, "/api/v1/no-such-route");
  });
  afterAll(async () => test?.close());

  it("reaches map ids as long as the definition allows, and answers longer ones in our shape", async () => {
    const map = await call("GET", `/tune-files/${tuneId}/maps/${longItemId}`, dealer);
    expect(map.statusCode, map.body).toBe(200);
    expect(map.json()).toHaveProperty("values");
    const unknown = await call("GET", `/tune-files/${tuneId}/maps/${"y".repeat(200)}`, dealer);
    expect(unknown.statusCode, "a 200-character id reaches the handler").toBe(404);
    expect(unknown.json().description).toContain("y".repeat(200));
    const tooLong = await call("GET", `/tune-files/${tuneId}/maps/${"y".repeat(201)}`, dealer);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ statusCode: 400, data: [expect.objectContaining({ path: "itemId" })] });
  });

  it("answers a path segment past the router's limit with 414 in our error shape and with the security headers", async () => {
    const answer = await get(port, `/api/v1/tune-files/${tuneId}/maps/${"z".repeat(1001)}`);
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toEqual({
      statusCode: 414,
      message: "URI too long",
      description: expect.stringContaining("1000"),
    });
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["cache-control"]).toBe("no-store");
    for (const name of SECURITY_HEADERS) expect(answer.headers[name], name).toBe(routed.headers[name]);
  });

  it("answers a path that is not valid URL encoding with 400 in our error shape", async () => {
    const answer = await get(port, "/api/v1/tune-files/%E0%A4%A/maps/x");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 400, message: "Bad request" });
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers headers over Node's 16 KiB with 431 in our error shape and with the security headers", async () => {
    const answer = await get(port, "/api/v1/health", { "x-padding": "p".repeat(20 * 1024) });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      statusCode: 431,
      message: "Request header fields too large",
      description: expect.any(String),
    });
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["cache-control"]).toBe("no-store");
    for (const name of SECURITY_HEADERS) {
      expect(routed.headers[name], `${name} on a routed answer`).toBeDefined();
      expect(answer.headers[name], name).toBe(routed.headers[name]);
    }
    // The server still answers afterwards.
    expect((await get(port, "/api/v1/health")).status).toBe(200);
  });
});
