import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../../../../contracts/audit";
import { changeText } from "../../../../../src/resources/users/audit-change";

const event = (targetType: string, before: unknown, after: unknown): AuditEvent => ({
  id: 1,
  at: "2026-01-01T00:00:00.000Z",
  actorUid: "dealer",
  actorLabel: "dealer@example.com",
  actorRole: "dealer",
  action: `${targetType}.quote`,
  targetType,
  targetId: "t",
  subjectUid: "customer",
  before,
  after,
  requestId: null,
});

describe("an audit row's change text", () => {
  it("names a tuning request's states in the screens' words", () => {
    expect(
      changeText(
        event(
          "tuning-request",
          { state: "submitted", quotePriceCents: null },
          { state: "quoted", quotePriceCents: 24900 },
        ),
      ),
    ).toBe("state: asked → quoted; quotePriceCents: null → 24900");
    expect(changeText(event("tuning-request", { state: "revision-requested" }, { state: "in-progress" }))).toBe(
      "state: revision asked → in progress",
    );
  });

  it("leaves other records' values as stored", () => {
    expect(changeText(event("dealer-profile", { status: "pending" }, { status: "approved", said: "ok" }))).toBe(
      "status: pending → approved; said: ok",
    );
  });
});
