import { describe, expect, it } from "vitest";
import { changeOwner, KEEP_ALIVE_LIMIT, type KeptPage, type PageLocation, visit } from "../../../../src/lib/keep-alive";

const keepAllBut = (...dropped: string[]) => ({ keep: (pathname: string) => !dropped.includes(pathname) });
const at = (pathname: string, search = ""): PageLocation => ({ pathname, search });

function walk(paths: PageLocation[], options = keepAllBut()): KeptPage<PageLocation>[] {
  return paths.reduce<KeptPage<PageLocation>[]>((entries, location) => visit(entries, location, options).entries, []);
}

describe("keep-alive pages", () => {
  it("keeps the pages visited, the one on screen last", () => {
    const entries = walk([at("/my-devices"), at("/my-tunes"), at("/my-devices")]);
    expect(entries.map((entry) => entry.key)).toEqual(["/my-tunes", "/my-devices"]);
    expect(entries.every((entry) => entry.generation === 0)).toBe(true);
  });

  it("drops a page that is not kept alive once another is shown", () => {
    const options = keepAllBut("/profile");
    const onProfile = walk([at("/my-devices"), at("/profile")], options);
    expect(onProfile.map((entry) => entry.key)).toEqual(["/my-devices", "/profile"]);
    expect(visit(onProfile, at("/dashboard"), options).entries.map((entry) => entry.key)).toEqual([
      "/my-devices",
      "/dashboard",
    ]);
  });

  it(`keeps at most ${KEEP_ALIVE_LIMIT}, dropping the least recently used`, () => {
    expect(KEEP_ALIVE_LIMIT).toBe(10);
    const paths = Array.from({ length: 12 }, (_, index) => at(`/page-${index}`));
    const entries = walk([...paths.slice(0, 3), at("/page-0"), ...paths.slice(3)]);
    expect(entries).toHaveLength(10);
    expect(entries.map((entry) => entry.key)).not.toContain("/page-1");
    expect(entries.map((entry) => entry.key)).toContain("/page-0");
    expect(entries.at(-1)?.key).toBe("/page-11");
  });

  it("follows the query of the page on screen", () => {
    const entries = walk([at("/my-devices"), at("/my-devices", "?current=2")]);
    expect(entries).toEqual([{ key: "/my-devices", location: at("/my-devices", "?current=2"), generation: 0 }]);
  });

  it("restores a list's query when it is opened again without one", () => {
    const left = walk([at("/my-devices", "?current=2"), at("/my-tunes")]);
    const back = visit(left, at("/my-devices"), keepAllBut());
    expect(back.restore).toEqual(at("/my-devices", "?current=2"));
    expect(back.entries.at(-1)).toEqual({
      key: "/my-devices",
      location: at("/my-devices", "?current=2"),
      generation: 0,
    });
  });

  it("restores the query under the pathname arrived at, within the same page", () => {
    const options = { keep: () => true, keyOf: (pathname: string) => pathname.replace(/\/(show|edit)\/[^/]+$/, "") };
    const left = [
      at("/admin/obd-functions", "?current=3"),
      at("/admin/obd-functions/show/7", "?current=3"),
      at("/dashboard"),
    ].reduce<KeptPage<PageLocation>[]>((entries, location) => visit(entries, location, options).entries, []);
    expect(left.map((entry) => entry.key)).toEqual(["/admin/obd-functions", "/dashboard"]);
    const back = visit(left, at("/admin/obd-functions/edit/7"), options);
    expect(back.restore).toEqual(at("/admin/obd-functions/edit/7", "?current=3"));
    expect(back.entries.at(-1)).toEqual({
      key: "/admin/obd-functions",
      location: at("/admin/obd-functions/edit/7", "?current=3"),
      generation: 0,
    });
  });

  it("starts a page afresh when it is opened with another query", () => {
    const left = walk([at("/my-devices", "?current=2"), at("/my-tunes")]);
    const shared = visit(left, at("/my-devices", "?current=5"), keepAllBut());
    expect(shared.restore).toBeNull();
    expect(shared.entries.at(-1)).toEqual({
      key: "/my-devices",
      location: at("/my-devices", "?current=5"),
      generation: 1,
    });
  });

  it("after a sign-out keeps nothing of the signed-in user once the page on screen is left", () => {
    const signedIn = walk([at("/my-devices"), at("/my-tunes")]);
    const afterSignOut = changeOwner(signedIn, true);
    expect(afterSignOut.map((entry) => entry.key)).toEqual(["/my-tunes"]);
    expect(visit(afterSignOut, at("/login"), keepAllBut()).entries.map((entry) => entry.key)).toEqual(["/login"]);
  });

  it("after a sign-in keeps the public page it happened on, and nothing hidden", () => {
    const signedOut = walk([at("/faqs"), at("/login")]);
    const afterSignIn = changeOwner(signedOut, false);
    expect(afterSignIn.map((entry) => entry.key)).toEqual(["/login"]);
    expect(visit(afterSignIn, at("/dashboard"), keepAllBut()).entries.map((entry) => entry.key)).toEqual([
      "/login",
      "/dashboard",
    ]);
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => visit([], at("/"), { keep: () => true, limit: 0 })).toThrow(
      "Keep-alive limit must be a positive integer, got 0.",
    );
  });
});
