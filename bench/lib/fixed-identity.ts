import type { Identity, VerifiedCaller } from "../../server/services/identity";

/** The caller every request is made as: an admin, verified without the identity service. */
export function fixedIdentity(): Identity {
  const caller: VerifiedCaller = {
    uid: "bench-admin",
    email: "bench@example.test",
    emailVerified: true,
    role: "admin",
    claims: {} as VerifiedCaller["claims"],
  };
  return {
    auth: undefined as unknown as Identity["auth"],
    verifyIdToken: async () => caller,
    verifySessionCookie: async () => caller,
    ping: async () => true,
    close: async () => undefined,
  };
}
