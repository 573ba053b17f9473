import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startTestApp } from "./support/harness";

function get(agent: http.Agent, port: number, path: string): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
        );
      })
      .on("error", reject);
  });
}

describe("graceful shutdown", () => {
  it("finishes in-flight requests and closes keep-alive connections within seconds", async () => {
    const test = await startTestApp("pglite");
    let release!: () => void;
    test.app.get("/api/v1/__slow", { config: { public: true } }, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { finished: true };
    });
    await test.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = test.app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    expect((await get(agent, port, "/api/v1/health")).status).toBe(200);

    const inFlight = get(agent, port, "/api/v1/__slow");
    await new Promise((resolve) => setTimeout(resolve, 100));
    test.app.shuttingDown = true;
    const started = Date.now();
    const closed = test.close();
    release();
    const answer = await inFlight;
    await closed;
    expect(answer).toEqual({ status: 200, connection: "close" });
    expect(Date.now() - started).toBeLessThan(3000);
    agent.destroy();
  });
});
