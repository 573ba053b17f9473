import { describe, expect, it } from "vitest";
import { reprDigestOf, wantsSha256 } from "../../../../server/http/digest";

describe("wantsSha256 (RFC 9530 Want-Repr-Digest / Want-Content-Digest)", () => {
  it("is asked by a positive preference or a bare key, in either field", () => {
    expect(wantsSha256({ "want-repr-digest": "sha-256=1" })).toBe(true);
    expect(wantsSha256({ "want-repr-digest": "sha-512=3, sha-256=10" })).toBe(true);
    expect(wantsSha256({ "want-content-digest": "SHA-256" })).toBe(true);
  });

  it("is not asked without the field, for other algorithms only, or with preference 0", () => {
    expect(wantsSha256({})).toBe(false);
    expect(wantsSha256({ "want-repr-digest": "sha-512=3" })).toBe(false);
    expect(wantsSha256({ "want-repr-digest": "sha-256=0, sha-512=1" })).toBe(false);
  });
});

describe("reprDigestOf", () => {
  it("is the SHA-256 as a structured-field byte sequence", () => {
    // echo -n abc | sha256sum, in base64
    expect(reprDigestOf(new TextEncoder().encode("abc"))).toBe(
      "sha-256=:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=:",
    );
  });
});
