/**
 * Digests on request (RFC 9530): a caller asks with `Want-Repr-Digest` (or
 * `Want-Content-Digest`, the same for answers sent without a content coding),
 * giving each algorithm a preference from 1 to 10; 0 declines it. Answers
 * that cost a pass over megabytes to hash send `Repr-Digest` only when asked.
 */
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** True when the request asks for a SHA-256 digest of the answer. */
export function wantsSha256(headers: IncomingHttpHeaders): boolean {
  for (const name of ["want-repr-digest", "want-content-digest"]) {
    const value = headers[name];
    for (const member of (Array.isArray(value) ? value.join(",") : (value ?? "")).split(",")) {
      const [key, preference] = member.split("=").map((part) => part.trim().toLowerCase());
      // A bare key is the structured-field boolean true.
      if (key === "sha-256" && (preference === undefined || Number(preference) > 0)) return true;
    }
  }
  return false;
}

/** The `Repr-Digest` field value for these bytes. */
export const reprDigestOf = (bytes: Uint8Array) => `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`;
