import { describe, expect, it } from "vitest";
import { type AuditActor, auditsChangeBy, changedFields, digestOf } from "../../../../server/services/audit";

const actor = (uid: string | null, role: AuditActor["role"]): AuditActor => ({ uid, role, requestId: "r" });

describe("the audit trail's helpers", () => {
  it("audits an admin always, anyone else only on data another user owns, and never a job on nobody's data", () => {
    expect(auditsChangeBy(actor("a", "admin"), "a")).toBe(true);
    expect(auditsChangeBy(actor("a", "admin"), null)).toBe(true);
    expect(auditsChangeBy(actor("d", "dealer"), "c")).toBe(true);
    expect(auditsChangeBy(actor("d", "dealer"), "d")).toBe(false);
    expect(auditsChangeBy(actor("c", "customer"), "c")).toBe(false);
    expect(auditsChangeBy(actor(null, "system"), null)).toBe(false);
  });

  it("keeps only the fields that changed, whatever the order of a nested object's keys, and dates as the API shows them", () => {
    const at = new Date("2026-01-02T03:04:05Z");
    expect(
      changedFields(
        { name: "A", notes: "", profile: { b: 1, a: 2 }, at: null, same: [1, 2] },
        { name: "B", notes: "", profile: { a: 2, b: 1 }, at, same: [1, 2] },
      ),
    ).toEqual({ before: { name: "A", at: null }, after: { name: "B", at } });
    expect(changedFields({ name: "A" }, { name: "A" })).toEqual({ before: {}, after: {} });
    // A field the row did not have reads as null before.
    expect(changedFields({}, { name: "A" })).toEqual({ before: { name: null }, after: { name: "A" } });
  });

  it("names a document by the digest of its content, not of how its keys happen to be ordered", () => {
    const one = digestOf({ items: [{ id: "x", z: { bits: 16, address: 16 } }], version: 1 });
    expect(one).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digestOf({ version: 1, items: [{ z: { address: 16, bits: 16 }, id: "x" }] })).toBe(one);
    expect(digestOf({ version: 2, items: [{ z: { address: 16, bits: 16 }, id: "x" }] })).not.toBe(one);
    expect(digestOf(null)).toBeNull();
  });
});
