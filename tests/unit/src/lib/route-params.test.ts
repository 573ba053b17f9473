import { describe, expect, it } from "vitest";
import { isUid, isUuid } from "../../../../src/lib/route-params";

describe("page id validation", () => {
  it("takes identity uids of 1 to 128 characters", () => {
    expect(isUid("kX3v9QeT2bMz8LwP4rYa7cN1dHs0")).toBe(true);
    expect(isUid("a".repeat(128))).toBe(true);
    expect(isUid("a".repeat(129))).toBe(false);
    expect(isUid("")).toBe(false);
    expect(isUid(undefined)).toBe(false);
  });

  it("refuses uids with whitespace or control characters", () => {
    expect(isUid("two words")).toBe(false);
    expect(isUid("tab\there")).toBe(false);
    expect(isUid("nul\u0000")).toBe(false);
  });

  it("takes UUIDs in either case and nothing else", () => {
    expect(isUuid("0b5e3c4e-8f0a-4d2b-9c1e-5a6b7c8d9e0f")).toBe(true);
    expect(isUuid("0B5E3C4E-8F0A-4D2B-9C1E-5A6B7C8D9E0F")).toBe(true);
    expect(isUuid("0b5e3c4e8f0a4d2b9c1e5a6b7c8d9e0f")).toBe(false);
    expect(isUuid("not-a-uuid")).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });
});
