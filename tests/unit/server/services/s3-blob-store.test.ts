import { describe, expect, it } from "vitest";
import { isUnreachable } from "../../../../server/services/s3-blob-store";

const withCode = (code: string) => Object.assign(new Error(code), { code });
const answered = (status: number) =>
  Object.assign(new Error(`answered ${status}`), { $metadata: { httpStatusCode: status } });

describe("object storage errors", () => {
  it("counts a storage that does not answer, times out or answers 5xx as unreachable", () => {
    for (const error of [
      withCode("ECONNREFUSED"),
      withCode("ECONNRESET"),
      withCode("ENOTFOUND"),
      Object.assign(new Error("timed out"), { name: "TimeoutError" }),
      answered(500),
      answered(503),
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], ""),
    ])
      expect(isUnreachable(error), error.message).toBe(true);
  });

  it("leaves a refusal of the request itself (missing object, refused key, a local file error) as it is", () => {
    for (const error of [answered(404), answered(403), answered(400), withCode("ENOENT"), "ECONNREFUSED"])
      expect(isUnreachable(error), String(error)).toBe(false);
  });
});
