import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../server/db/schema";
import {
  ageSessions,
  bearer,
  bothDatabases,
  createUser,
  createUsers,
  startTestApp,
  type TestApp,
  type TestUser,
  unsignedToken,
} from "./support/harness";

describe.each(bothDatabases)("foundation API on %s", (kind) => {
  let test: TestApp;
  let customer: TestUser;
  let dealer: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    test = await startTestApp(kind);
    test.app.get("/api/v1/__explode", async () => {
      throw new Error("password=hunter2 at SELECT * FROM secrets");
    });
    [customer, dealer, admin] = await createUsers(test, ["customer", "dealer", "admin"]);
  });
  afterAll(async () => test?.close());

  describe("health", () => {
    it("answers without a token, with the database kind and the version", async () => {
      const response = await test.app.inject({ method: "GET", url: "/api/v1/health" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ok", version: expect.any(String), database: { kind, ok: true } });
      expect(response.headers["cache-control"]).toBe("no-store");
    });
  });

  describe("authentication", () => {
    const accountWith = (authorization?: string) =>
      test.app.inject({ method: "GET", url: "/api/v1/auth/account", headers: authorization ? { authorization } : {} });

    it("refuses a request without a token with 401 in the error shape", async () => {
      const response = await accountWith();
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        statusCode: 401,
        message: "Unauthorized",
        description: "Missing bearer token",
      });
    });

    it("refuses a header that is not a bearer token", async () => {
      expect((await accountWith(`Basic ${Buffer.from("a:b").toString("base64")}`)).statusCode).toBe(401);
    });

    it("refuses a malformed token", async () => {
      const response = await accountWith("Bearer not-a-jwt");
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe("Unauthorized");
    });

    it("refuses an expired token", async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = unsignedToken({
        iss: `https://securetoken.google.com/${test.projectId}`,
        aud: test.projectId,
        sub: customer.uid,
        user_id: customer.uid,
        auth_time: now - 7200,
        iat: now - 7200,
        exp: now - 3600,
      });
      const response = await accountWith(`Bearer ${token}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().description).toMatch(/expired/);
    });

    it("refuses a token issued for another project", async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = unsignedToken({
        iss: "https://securetoken.google.com/someone-elses-project",
        aud: "someone-elses-project",
        sub: customer.uid,
        user_id: customer.uid,
        auth_time: now,
        iat: now,
        exp: now + 3600,
      });
      expect((await accountWith(`Bearer ${token}`)).statusCode).toBe(401);
    });

    it("refuses an unsigned token for a user the identity service does not know", async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = unsignedToken({
        iss: `https://securetoken.google.com/${test.projectId}`,
        aud: test.projectId,
        sub: "forged-user",
        user_id: "forged-user",
        admin: true,
        auth_time: now,
        iat: now,
        exp: now + 3600,
      });
      expect((await accountWith(`Bearer ${token}`)).statusCode).toBe(401);
    });

    it("refuses the token of a user who has been disabled since", async () => {
      const victim = await createUser(test, "customer");
      expect((await accountWith(`Bearer ${victim.token}`)).statusCode).toBe(200);
      await test.app.ctx.identity.auth.updateUser(victim.uid, { disabled: true });
      const response = await accountWith(`Bearer ${victim.token}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().description).toMatch(/disabled/);
    });

    it("refuses a token whose refresh tokens were revoked", async () => {
      const victim = await ageSessions(test, await createUser(test, "customer"));
      await test.app.ctx.identity.auth.revokeRefreshTokens(victim.uid);
      expect((await accountWith(`Bearer ${victim.token}`)).statusCode).toBe(401);
    });
  });

  describe("account", () => {
    it("answers the identity user fields, role and profile, and mirrors the user into our table", async () => {
      const response = await test.app.inject({
        method: "GET",
        url: "/api/v1/auth/account",
        headers: bearer(dealer.token),
      });
      expect(response.statusCode).toBe(200);
      const account = response.json();
      expect(account).toMatchObject({
        uid: dealer.uid,
        email: dealer.email,
        emailVerified: true,
        displayName: "Test dealer",
        photoURL: null,
        phoneNumber: null,
        tenantId: null,
        isAnonymous: false,
        role: "dealer",
        profile: { preferences: {}, dealer: null },
      });
      expect(account.providerData[0]).toMatchObject({ providerId: "password", email: dealer.email });
      expect(Date.parse(account.creationTime)).not.toBeNaN();
      const [row] = await test.app.ctx.db.select().from(users).where(eq(users.uid, dealer.uid));
      expect(row).toMatchObject({ email: dealer.email, role: "dealer" });
    });

    it("changes whitelisted fields of one's own account", async () => {
      // Phone numbers are unique across the identity service, and suites share one emulator.
      const phoneNumber = `+4479${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: bearer(customer.token),
        payload: { displayName: "Casey Q", phoneNumber, preferences: { units: "imperial" } },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        displayName: "Casey Q",
        phoneNumber,
        profile: { preferences: { units: "imperial" } },
      });
      const [row] = await test.app.ctx.db.select().from(users).where(eq(users.uid, customer.uid));
      expect(row).toMatchObject({ displayName: "Casey Q", phoneNumber, preferences: { units: "imperial" } });
    });

    it("answers 409 when the phone number belongs to another account", async () => {
      const phoneNumber = `+4478${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      await test.app.ctx.identity.auth.updateUser(dealer.uid, { phoneNumber });
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: bearer(customer.token),
        payload: { phoneNumber },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().data).toEqual([{ path: "phoneNumber", message: "Used by another account" }]);
    });

    it("refuses unknown fields, naming them, and changes nothing", async () => {
      const [before] = await test.app.ctx.db.select().from(users).where(eq(users.uid, customer.uid));
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: bearer(customer.token),
        payload: { displayName: "Mallory", role: "admin" },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        statusCode: 400,
        message: "Invalid body",
        data: [{ path: "role", message: 'Unknown field "role"' }],
      });
      const [after] = await test.app.ctx.db.select().from(users).where(eq(users.uid, customer.uid));
      expect(after).toEqual(before);
      const record = await test.app.ctx.identity.auth.getUser(customer.uid);
      expect(record.displayName).not.toBe("Mallory");
      expect(record.customClaims ?? {}).toEqual({});
    });

    it("names each invalid field", async () => {
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: bearer(customer.token),
        payload: { displayName: "", phoneNumber: "0123" },
      });
      expect(response.statusCode).toBe(400);
      const paths = response
        .json()
        .data.map((issue: { path: string }) => issue.path)
        .sort();
      expect(paths).toEqual(["displayName", "phoneNumber"]);
    });

    it("refuses changing another user's account, even for an admin", async () => {
      for (const caller of [dealer, admin]) {
        const response = await test.app.inject({
          method: "PATCH",
          url: `/api/v1/auth/account/${customer.uid}`,
          headers: bearer(caller.token),
          payload: { displayName: "Hijacked" },
        });
        expect(response.statusCode).toBe(403);
      }
      expect((await test.app.ctx.identity.auth.getUser(customer.uid)).displayName).not.toBe("Hijacked");
    });

    it("sends email action links to oneself, and only admins to others", async () => {
      const own = await test.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/${customer.uid}/verification`,
        headers: bearer(customer.token),
      });
      expect(own.statusCode).toBe(202);
      expect(own.json()).toEqual({ sent: true, email: customer.email });
      const other = await test.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/${dealer.uid}/password-reset`,
        headers: bearer(customer.token),
      });
      expect(other.statusCode).toBe(403);
      const byAdmin = await test.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/${dealer.uid}/password-reset`,
        headers: bearer(admin.token),
      });
      expect(byAdmin.statusCode).toBe(202);
      const unknown = await test.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/no-such-user/password-reset`,
        headers: bearer(admin.token),
      });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe("session mirror", () => {
    it("sets an httpOnly SameSite=Strict session cookie and answers the user and expiry", async () => {
      const response = await test.app.inject({
        method: "POST",
        url: "/api/__session",
        payload: { token: admin.token },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: { uid: admin.uid, email: admin.email, role: "admin" },
        expiresAt: expect.any(String),
      });
      const cookie = response.cookies.find((c) => c.name === "__session");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
      expect(cookie?.secure).toBeFalsy();

      const viaCookie = await test.app.inject({
        method: "GET",
        url: "/api/v1/auth/account",
        cookies: { __session: cookie!.value },
      });
      expect(viaCookie.statusCode).toBe(200);
      expect(viaCookie.json().uid).toBe(admin.uid);
    });

    it("does not accept the session cookie for changes (only safe methods)", async () => {
      const session = await test.app.inject({
        method: "POST",
        url: "/api/__session",
        payload: { token: customer.token },
      });
      const cookie = session.cookies.find((c) => c.name === "__session")!;
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        cookies: { __session: cookie.value },
        payload: { displayName: "Via cookie" },
      });
      expect(response.statusCode).toBe(401);
    });

    it("clears the cookie when the app signs out", async () => {
      const response = await test.app.inject({ method: "POST", url: "/api/__session", payload: { token: null } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null, expiresAt: null });
      expect(response.cookies.find((c) => c.name === "__session")?.value).toBe("");
    });

    it("refuses a bad token and unknown fields", async () => {
      expect(
        (await test.app.inject({ method: "POST", url: "/api/__session", payload: { token: "nope" } })).statusCode,
      ).toBe(401);
      expect(
        (await test.app.inject({ method: "POST", url: "/api/__session", payload: { token: admin.token, extra: 1 } }))
          .statusCode,
      ).toBe(400);
    });

    it("creates a session cookie for the caller's own token only", async () => {
      const own = await test.app.inject({
        method: "POST",
        url: "/api/v1/auth/create-session-cookie",
        headers: bearer(dealer.token),
        payload: { idToken: dealer.token, expiresIn: 10 * 60 * 1000 },
      });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual({ sessionCookie: expect.any(String), expiresAt: expect.any(String) });
      const foreign = await test.app.inject({
        method: "POST",
        url: "/api/v1/auth/create-session-cookie",
        headers: bearer(dealer.token),
        payload: { idToken: customer.token },
      });
      expect(foreign.statusCode).toBe(403);
      const tooShort = await test.app.inject({
        method: "POST",
        url: "/api/v1/auth/create-session-cookie",
        headers: bearer(dealer.token),
        payload: { idToken: dealer.token, expiresIn: 60_000 },
      });
      expect(tooShort.statusCode).toBe(400);
      expect(tooShort.json().data[0]).toEqual({ path: "expiresIn", message: "expiresIn must be at least 5 minutes" });
    });
  });

  describe("roles", () => {
    const adminOnly = ["/api/v1/status", "/api/v1/status/system", "/api/v1/status/background"];

    it.each(adminOnly)("%s answers admins and refuses dealers and customers with 403", async (url) => {
      expect((await test.app.inject({ method: "GET", url, headers: bearer(admin.token) })).statusCode).toBe(200);
      for (const caller of [dealer, customer]) {
        const response = await test.app.inject({ method: "GET", url, headers: bearer(caller.token) });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({
          statusCode: 403,
          message: "Forbidden",
          description: "This needs the admin role",
        });
      }
    });

    it("reports database and identity reachability to admins", async () => {
      // Mail queued by earlier tests may still be on its way: the count is of jobs running now.
      await test.app.ctx.jobs.idle();
      const response = await test.app.inject({ method: "GET", url: "/api/v1/status", headers: bearer(admin.token) });
      expect(response.json()).toMatchObject({
        database: { kind, ok: true },
        identity: { ok: true, emulator: true },
        jobs: { running: 0 },
      });
    });

    it("answers every role its own account", async () => {
      for (const [caller, role] of [
        [customer, "customer"],
        [dealer, "dealer"],
        [admin, "admin"],
      ] as const) {
        const response = await test.app.inject({
          method: "GET",
          url: "/api/v1/auth/account",
          headers: bearer(caller.token),
        });
        expect(response.json()).toMatchObject({ uid: caller.uid, role });
      }
    });
  });

  describe("errors", () => {
    it("answers 404 in the error shape for unknown API paths, with or without a token", async () => {
      for (const headers of [{}, bearer(customer.token)]) {
        const response = await test.app.inject({ method: "GET", url: "/api/v1/no-such-thing?x=1", headers });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          statusCode: 404,
          message: "Not found",
          description: "No route GET /api/v1/no-such-thing",
        });
      }
    });

    it("answers 413 for a body over the limit and changes nothing", async () => {
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: { ...bearer(customer.token), "content-type": "application/json" },
        payload: JSON.stringify({ displayName: "x".repeat(2 * 1024 * 1024) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ statusCode: 413, message: "Payload too large" });
    });

    it("answers 400 for malformed JSON", async () => {
      const response = await test.app.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${customer.uid}`,
        headers: { ...bearer(customer.token), "content-type": "application/json" },
        payload: "{not json",
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().statusCode).toBe(400);
    });

    it("never shows internals in a 500", async () => {
      const response = await test.app.inject({ method: "GET", url: "/api/v1/__explode", headers: bearer(admin.token) });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        statusCode: 500,
        message: "Internal server error",
        description: "Something went wrong on our side. It has been logged.",
      });
      expect(response.body).not.toMatch(/hunter2|SELECT|at /);
    });

    it("sends the security headers on errors too", async () => {
      const response = await test.app.inject({ method: "GET", url: "/api/v1/no-such-thing" });
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["cache-control"]).toBe("no-store");
    });
  });
});
