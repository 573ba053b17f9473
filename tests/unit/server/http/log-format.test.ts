import { describe, expect, it } from "vitest";
import { logDestinationFor, logFormatFor, prettyDestination } from "../../../../server/http/log-format";

describe("the server log's format", () => {
  it("writes JSON in production, to files and pipes, or when LOG_FORMAT=json; readable lines on a terminal", () => {
    expect(logFormatFor({}, true)).toBe("pretty");
    expect(logFormatFor({}, false)).toBe("json");
    expect(logFormatFor({ NODE_ENV: "production" }, true)).toBe("json");
    expect(logFormatFor({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormatFor({ LOG_FORMAT: "pretty" }, false)).toBe("pretty");
    expect(logDestinationFor({}, { isTTY: false, write: () => {} })).toBeUndefined();
    expect(logDestinationFor({}, { isTTY: true, write: () => {} })).toBeDefined();
  });

  it("prints one short line per request and the message of anything else", () => {
    const lines: string[] = [];
    const out = prettyDestination({ write: (line) => lines.push(line) });
    const time = Date.parse("2026-03-01T10:11:12.000Z");
    const write = (entry: object) => out.write(`${JSON.stringify({ time, ...entry })}\n`);
    write({ level: 30, reqId: "req-1", req: { method: "GET", url: "/api/v1/health" }, msg: "incoming request" });
    write({ level: 30, reqId: "req-1", res: { statusCode: 200 }, responseTime: 3.4, msg: "request completed" });
    write({ level: 40, msg: "the inbox is slow" });
    write({ level: 50, msg: "failed", err: { message: "boom", stack: "Error: boom\n    at x" } });
    expect(lines).toEqual([
      "10:11:12 INFO  GET /api/v1/health 200 3 ms\n",
      "10:11:12 WARN  the inbox is slow\n",
      "10:11:12 ERROR failed\nError: boom\n    at x\n",
    ]);
  });
});
