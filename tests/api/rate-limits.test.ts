/**
 * Rate limits with several instances: counted in Redis (REDIS_URL), so an address gets the limit
 * once across every instance behind the proxy, not once per instance. A Redis that does not answer
 * lets requests through: never a 500, never everyone refused.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./support/harness";
import { contactMessage } from "./support/public-site-forms";

const REDIS_URL = "redis://127.0.0.1:6379";

const send = (test: TestApp, remoteAddress: string) =>
  test.app.inject({ method: "POST", url: "/api/v1/contact-requests", payload: contactMessage, remoteAddress });

describe("rate limits shared through Redis", () => {
  let a: TestApp;
  let b: TestApp;
  // Each run its own keys: the window is ten minutes, and runs follow each other sooner.
  const prefix = `test-${randomBytes(6).toString("hex")}:`;

  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix };
    a = await startTestApp("postgres", env);
    b = await startTestApp("postgres", env, { sharing: a });
  });
  afterAll(async () => {
    const keys = await a?.app.ctx.redis?.keys(`${prefix}*`);
    if (keys?.length) await a.app.ctx.redis?.del(...keys);
    await b?.close();
    await a?.close();
  });

  it("gives one address five messages in ten minutes across both instances, not five on each", async () => {
    const statuses = [];
    for (const instance of [a, b, a, b, a, b]) statuses.push((await send(instance, "10.0.1.1")).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await send(a, "10.0.1.1")).statusCode, "the first instance refuses it too").toBe(429);
    expect((await send(b, "10.0.1.2")).statusCode, "another address is not affected").toBe(201);
    expect(await a.app.ctx.redis?.keys(`${prefix}rate-limit:*`)).toHaveLength(2);
  });
});

describe("rate limits when Redis does not answer", () => {
  let test: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1.
    test = await startTestApp("postgres", { REDIS_URL: "redis://127.0.0.1:1", REDIS_KEY_PREFIX: "unreachable:" });
  });
  afterAll(async () => test?.close());

  it("lets the messages through instead of answering 500", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(test, "10.0.2.1")).statusCode);
    expect(statuses).toEqual([201, 201, 201]);
  });
});
