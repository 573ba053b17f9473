import { describe, expect, it } from "vitest";
import { greetingFor } from "../../../../src/lib/greeting";

const account = { displayName: "Ada", email: "ada@example.com" };

describe("the dashboard's greeting", () => {
  it("welcomes a brand-new user on the sign-in of their sign-up", () => {
    expect(
      greetingFor({ ...account, creationTime: "2026-03-01T10:00:00.000Z", lastSignInTime: "2026-03-01T10:00:00.000Z" }),
    ).toBe("Welcome, Ada");
    expect(
      greetingFor({ ...account, creationTime: "2026-03-01T10:00:00.000Z", lastSignInTime: "2026-03-01T10:00:02.000Z" }),
    ).toBe("Welcome, Ada");
  });

  it("welcomes back a user signing in again later", () => {
    expect(
      greetingFor({ ...account, creationTime: "2026-03-01T10:00:00.000Z", lastSignInTime: "2026-03-02T08:00:00.000Z" }),
    ).toBe("Welcome back, Ada");
  });

  it("names the user by their email without a display name, and welcomes when a time is unknown", () => {
    expect(
      greetingFor({ ...account, displayName: null, creationTime: null, lastSignInTime: "2026-03-02T08:00:00.000Z" }),
    ).toBe("Welcome, ada@example.com");
  });
});
