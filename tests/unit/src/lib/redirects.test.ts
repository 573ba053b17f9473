import { describe, expect, it } from "vitest";

import { PAGE_REDIRECTS, redirectFor } from "../../../../src/lib/redirects";

describe("page-level redirects", () => {
  it.each([
    ["/admin", "/admin/users"],
    ["/tuning-tools", "/tuning-tools/tune-viewer"],
    ["/portal", "/dashboard"],
  ])("sends %s to %s", (from, to) => {
    expect(redirectFor(from)).toBe(to);
  });

  it("lists exactly the three redirects of the issue", () => {
    expect(PAGE_REDIRECTS).toEqual({
      "/admin": "/admin/users",
      "/tuning-tools": "/tuning-tools/tune-viewer",
      "/portal": "/dashboard",
    });
  });

  it("returns null for a path that routes as it is", () => {
    expect(redirectFor("/")).toBeNull();
    expect(redirectFor("/admin/users")).toBeNull();
    expect(redirectFor("/my-devices/42")).toBeNull();
    expect(redirectFor("/no-such-page")).toBeNull();
  });

  it("drops trailing slashes", () => {
    expect(redirectFor("/my-tunes/")).toBe("/my-tunes");
    expect(redirectFor("/my-tunes///")).toBe("/my-tunes");
  });

  it("drops trailing slashes before looking up a redirect", () => {
    expect(redirectFor("/admin/")).toBe("/admin/users");
    expect(redirectFor("/portal/")).toBe("/dashboard");
  });

  it("keeps the query string and the fragment", () => {
    expect(redirectFor("/admin?page=2#top")).toBe("/admin/users?page=2#top");
    expect(redirectFor("/my-tunes/?q=golf")).toBe("/my-tunes?q=golf");
    expect(redirectFor("/my-tunes?q=a/")).toBeNull();
  });

  it("never produces a protocol-relative URL that would leave the site", () => {
    expect(redirectFor("//evil.example/")).toBe("/evil.example");
    expect(redirectFor("//")).toBe("/");
  });

  it("is case-sensitive, like the routes", () => {
    expect(redirectFor("/Admin")).toBeNull();
  });
});
