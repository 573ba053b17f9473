import { describe, expect, it } from "vitest";
import { keepAliveFor, notFoundLayout, routeFor } from "../../../src/resources";

describe("route lookups of the shell", () => {
  it("shows an unknown path in the layout of its first path segment", () => {
    expect(notFoundLayout("/admin/nothing-here")).toBe("portal");
    expect(notFoundLayout("/my-devices/1/photos")).toBe("portal");
    expect(notFoundLayout("/tuning-tools/nothing")).toBe("portal");
    expect(notFoundLayout("/docs/a/b")).toBe("docs");
    expect(notFoundLayout("/legal/cookies")).toBe("landing");
    expect(notFoundLayout("/no/such/page")).toBe("landing");
    expect(notFoundLayout("/")).toBe("landing");
  });

  it("finds the route of a path, params included", () => {
    expect(routeFor("/admin/users/abc")?.path).toBe("/admin/users/:userId");
    expect(routeFor("/nowhere")).toBeUndefined();
  });

  it("keeps known pages alive except /profile, and unknown paths not at all", () => {
    expect(keepAliveFor("/my-devices/42")).toBe(true);
    expect(keepAliveFor("/profile")).toBe(false);
    expect(keepAliveFor("/nowhere")).toBe(false);
  });

  it("validates ids where a route asks for it", () => {
    const users = routeFor("/admin/users/x")!.page;
    expect(users.validate?.({ userId: "kX3v9QeT2bMz8LwP4rYa7cN1dHs0" })).toBe(true);
    expect(users.validate?.({ userId: "x".repeat(129) })).toBe(false);
    const log = routeFor("/tuning-tools/data-logs/x")!.page;
    expect(log.validate?.({ id: "not-a-uuid" })).toBe(false);
  });
});
