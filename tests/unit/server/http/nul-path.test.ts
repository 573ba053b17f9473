import { describe, expect, it } from "vitest";
import { nulPath } from "../../../../server/http/zod";

describe("nulPath (NUL characters in parsed JSON, refused for every route)", () => {
  it("names the first string or key holding a NUL character as a dotted path", () => {
    expect(nulPath({ title: "a\u0000b" })).toBe("title");
    expect(nulPath({ tags: ["ok", "b\u0000"] })).toBe("tags.1");
    expect(nulPath({ profile: { "we\u0000ird": 1 } })).toBe("profile.we\u0000ird");
    expect(nulPath("plain \u0000 text")).toBe("");
  });

  it("finds none in clean values, Buffers and numbers", () => {
    expect(nulPath({ title: "fine", n: 1, list: [true, null, { deep: "é😀" }] })).toBeNull();
    expect(nulPath(Buffer.from([0, 0, 0]))).toBeNull();
    expect(nulPath(undefined)).toBeNull();
  });

  it("walks a body nested 100,000 deep without overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}"\\u0000"${"]".repeat(100_000)}`);
    expect(nulPath(deep)).toBe(Array(100_000).fill("0").join("."));
  });
});
