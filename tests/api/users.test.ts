import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roleFromClaims } from "../../contracts/account";
import { dealerProfiles, notifications, orders, users } from "../../server/db/schema";
import { reconcileUsers } from "../../server/services/users";
import { listen } from "./support/event-stream-client";
import {
  ageSessions,
  apiDatabases,
  bearer,
  createUser,
  createUsers,
  signIn,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./support/harness";
import { waitForMail } from "./support/inbox";
import { requestsTo } from "./support/requests";

/** Signs in with a custom token as the web SDK's signInWithCustomToken does; answers the ID token. */
async function signInWithCustomToken(emulatorHost: string, token: string): Promise<string> {
  const response = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=test-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`custom token sign-in failed: ${body.error?.message}`);
  return body.idToken;
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Record<string, unknown>;

describe.each(apiDatabases)("users: admins manage accounts on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let port: number;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let customer: TestUser;
  let dealer: TestUser;
  const trailOf = async (uid: string) =>
    (await call("GET", `/audit-events?subjectUid[eq]=${uid}&sort=at`, admin)).json().data as Array<{
      action: string;
      before: unknown;
      after: unknown;
      actorUid: string;
    }>;

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, customer, dealer] = await createUsers(test, [
      ["admin", "Support Admin"],
      ["customer", "Carla Customer"],
      ["dealer", "Dora Dealer"],
    ]);
    // Each signs in once: the users table mirrors them.
    await Promise.all([admin, customer, dealer].map((user) => call("GET", "/auth/account", user)));
    await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Dora Tuning", status: "approved" });
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => test?.close());

  it("lists the mirror for admins only: search by email or name, filters by role and status, newest first", async () => {
    const all = await call("GET", "/users?pageSize=50", admin);
    expect(all.statusCode, all.body).toBe(200);
    const found = all.json().data.find((user: { uid: string }) => user.uid === dealer.uid);
    expect(found).toMatchObject({
      email: dealer.email,
      displayName: "Dora Dealer",
      role: "dealer",
      disabled: false,
      emailVerified: true,
      dealer: { businessName: "Dora Tuning", status: "approved" },
    });
    expect(found.lastSignInAt).toEqual(expect.any(String));
    const byName = (await call("GET", "/users?q=carla", admin)).json();
    expect(byName.data.map((user: { uid: string }) => user.uid)).toEqual([customer.uid]);
    const byEmail = (await call("GET", `/users?q=${encodeURIComponent(customer.email.slice(0, 14))}`, admin)).json();
    expect(byEmail.data.map((user: { uid: string }) => user.uid)).toContain(customer.uid);
    const dealers = (await call("GET", "/users?role[eq]=dealer", admin)).json();
    expect(dealers.data.every((user: { role: string }) => user.role === "dealer")).toBe(true);
    expect(
      (await call("GET", "/users?disabled[eq]=true", admin))
        .json()
        .data.some((user: { uid: string }) => user.uid === customer.uid),
    ).toBe(false);
    const bad = await call("GET", "/users?role[eq]=x&createdAt[gt]=yesterday", admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data[0].path).toBe("createdAt[gt]");
    expect((await call("GET", "/users", customer)).statusCode).toBe(403);
    expect((await call("GET", "/users", dealer)).statusCode).toBe(403);
    expect((await call("GET", "/users", null)).statusCode).toBe(401);
  });

  it("an admin opens an account with a role: the identity account has the claims, a dealer gets an approved profile, the audit says who", async () => {
    const email = `invited-${Date.now()}@example.test`;
    const noBusiness = await call("POST", "/users", admin, { email, role: "dealer" });
    expect(noBusiness.statusCode).toBe(400);
    expect(noBusiness.json().data).toEqual([
      { path: "businessName", message: "a dealer account needs a business name" },
    ]);
    expect((await call("POST", "/users", customer, { email, role: "customer" })).statusCode).toBe(403);
    const made = await call("POST", "/users", admin, {
      email: email.toUpperCase(),
      displayName: "Ivan Invited",
      role: "dealer",
      businessName: "Ivan Motors",
    });
    expect(made.statusCode, made.body).toBe(201);
    const { user } = made.json();
    expect(user).toMatchObject({
      email,
      displayName: "Ivan Invited",
      role: "dealer",
      disabled: false,
      emailVerified: false,
      dealer: { businessName: "Ivan Motors", status: "approved" },
    });
    expect(roleFromClaims((await app.ctx.identity.auth.getUser(user.uid)).customClaims)).toBe("dealer");
    const again = await call("POST", "/users", admin, { email, role: "customer" });
    expect(again.statusCode).toBe(409);
    expect(again.json().data).toEqual([{ path: "email", message: "already has an account" }]);
    const [invitation] = await waitForMail(email);
    expect(invitation.subject).toMatch(/invit/i);
    expect(invitation.text).toContain("dealer");
    const [created] = await trailOf(user.uid);
    expect(created).toMatchObject({
      action: "user.created",
      actorUid: admin.uid,
      after: { email, role: "dealer", businessName: "Ivan Motors" },
    });
  });

  it("a role change sets the claims and revokes: the old token answers 401 on its next call, the open app gets a token with the new role", async () => {
    const user = await ageSessions(test, await createUser(test, "customer", "Rolf Role"));
    expect((await call("GET", "/auth/account", user)).statusCode).toBe(200);
    const stream = await listen(port, `/api/v1/users/${user.uid}/listen`, bearer(user.token));
    expect(stream.status).toBe(200);
    const noReason = await call("PATCH", `/users/${user.uid}`, admin, { role: "admin" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().data[0].path).toBe("reason");
    const changed = await call("PATCH", `/users/${user.uid}`, admin, {
      role: "admin",
      reason: "joins the support team",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ role: "admin" });

    const event = await stream.next("account");
    expect(event.data).toMatchObject({
      reason: "role-changed",
      role: "admin",
      message: "Your role is now admin: joins the support team",
      customToken: expect.any(String),
    });
    stream.close();
    const stale = await call("GET", "/auth/account", user);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().description).toMatch(/revoked/);
    const fresh = await signInWithCustomToken(test.emulatorHost, (event.data as { customToken: string }).customToken);
    expect(claimsOf(fresh).admin).toBe(true);
    expect((await call("GET", "/users", { ...user, token: fresh })).statusCode).toBe(200);

    const [audit] = await trailOf(user.uid);
    expect(audit).toMatchObject({
      action: "user.updated",
      actorUid: admin.uid,
      before: { role: "customer" },
      after: { role: "admin", reason: "joins the support team" },
    });
    const [told] = await app.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, user.uid), eq(notifications.kind, "account.role-changed")));
    expect(told).toMatchObject({ title: "Your role is now admin", body: "joins the support team" });
  });

  it("refuses what would lock support out or break a dealer: own admin role, own account, the dealer role without a profile", async () => {
    const own = await call("PATCH", `/users/${admin.uid}`, admin, { role: "customer", reason: "testing myself" });
    expect(own.statusCode).toBe(409);
    expect(own.json().data).toEqual([{ path: "role", message: "not on your own account" }]);
    expect(
      (await call("PATCH", `/users/${admin.uid}`, admin, { disabled: true, reason: "testing myself" })).statusCode,
    ).toBe(409);
    const noProfile = await call("PATCH", `/users/${customer.uid}`, admin, {
      role: "dealer",
      reason: "asked by phone",
    });
    expect(noProfile.statusCode).toBe(409);
    expect(noProfile.json().data).toEqual([
      { path: "businessName", message: "no dealer profile: give a business name" },
    ]);
    expect(
      (await call("PATCH", "/users/no-such-user", admin, { disabled: true, reason: "spam account" })).statusCode,
    ).toBe(404);
    expect(
      (await call("PATCH", `/users/${customer.uid}`, dealer, { disabled: true, reason: "I do not like them" }))
        .statusCode,
    ).toBe(403);
  });

  it("the dealer role given with a business name to a user without a profile opens it approved in the same step", async () => {
    const shopper = await createUser(test, "customer", "Sam Shopper");
    await call("GET", "/auth/account", shopper);
    const made = await call("PATCH", `/users/${shopper.uid}`, admin, {
      role: "dealer",
      businessName: "Sam's Tuning",
      reason: "signed the dealer contract",
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ role: "dealer", dealer: { businessName: "Sam's Tuning", status: "approved" } });
    const [profile] = await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, shopper.uid));
    expect(profile).toMatchObject({
      status: "approved",
      statusReason: "signed the dealer contract",
      statusChangedBy: admin.uid,
    });
  });

  it("a dealer made customer loses the dealer menu at once: profile suspended, stream told, old token refused", async () => {
    dealer = await ageSessions(test, dealer);
    const stream = await listen(port, `/api/v1/users/${dealer.uid}/listen`, bearer(dealer.token));
    const changed = await call("PATCH", `/users/${dealer.uid}`, admin, {
      role: "customer",
      reason: "chargebacks under review",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ role: "customer", dealer: { status: "suspended" } });
    expect((await stream.next("account")).data).toMatchObject({ reason: "role-changed", role: "customer" });
    stream.close();
    expect((await call("GET", "/tuning-requests", dealer)).statusCode).toBe(401);
    const back = await call("PATCH", `/users/${dealer.uid}`, admin, { role: "dealer", reason: "review closed" });
    expect(back.json()).toMatchObject({ role: "dealer", dealer: { status: "approved" } });
    dealer = { ...dealer, token: await signIn(test.emulatorHost, dealer.email, dealer.password) };
    expect((await call("GET", "/tuning-requests", dealer)).statusCode).toBe(200);
  });

  it("disabling an account stops it at once: identity disabled, sessions revoked, the app told to sign out; enabling lets it sign in again", async () => {
    const user = await createUser(test, "customer", "Spammy Sam");
    const stream = await listen(port, `/api/v1/users/${user.uid}/listen`, bearer(user.token));
    const disabled = await call("PATCH", `/users/${user.uid}`, admin, {
      disabled: true,
      reason: "spam in support requests",
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect((await stream.next("account")).data).toEqual({
      reason: "disabled",
      message: "Your account was disabled: spam in support requests",
    });
    stream.close();
    expect((await call("GET", "/auth/account", user)).statusCode).toBe(401);
    await expect(signIn(test.emulatorHost, user.email, user.password)).rejects.toThrow(/USER_DISABLED/);
    expect(
      (await call("GET", "/users?disabled[eq]=true", admin)).json().data.map((row: { uid: string }) => row.uid),
    ).toContain(user.uid);
    await call("PATCH", `/users/${user.uid}`, admin, { disabled: false, reason: "explained themselves" });
    expect(
      (
        await call("GET", "/auth/account", {
          ...user,
          token: await signIn(test.emulatorHost, user.email, user.password),
        })
      ).statusCode,
    ).toBe(200);
    expect((await trailOf(user.uid)).map((row) => row.after)).toEqual([
      { disabled: true, reason: "spam in support requests" },
      { disabled: false, reason: "explained themselves" },
    ]);
  });

  it("an admin deletes an account: kept anonymised where money refers to it, gone otherwise; identity account gone; audited", async () => {
    const buyer = await createUser(test, "customer", "Bea Buyer");
    const quiet = await createUser(test, "customer", "Quinn Quiet");
    await Promise.all([buyer, quiet].map((user) => call("GET", "/auth/account", user)));
    await app.ctx.db.insert(orders).values({
      kind: "tune-file",
      customerUid: buyer.uid,
      dealerUid: dealer.uid,
      title: "Stage 1",
      amountCents: 5000,
      currency: "EUR",
      feeCents: 500,
      status: "paid",
      provider: "sandbox",
      paidAt: new Date(),
    });
    expect((await call("DELETE", `/users/${buyer.uid}`, customer)).statusCode).toBe(403);
    expect((await call("DELETE", `/users/${buyer.uid}`, admin)).statusCode).toBe(204);
    expect((await call("DELETE", `/users/${quiet.uid}`, admin)).statusCode).toBe(204);
    const [kept] = await app.ctx.db.select().from(users).where(eq(users.uid, buyer.uid));
    expect(kept).toMatchObject({ email: null, displayName: null, disabled: true });
    expect(kept.deletedAt).toBeInstanceOf(Date);
    expect(await app.ctx.db.select().from(users).where(eq(users.uid, quiet.uid))).toEqual([]);
    await expect(app.ctx.identity.auth.getUser(buyer.uid)).rejects.toMatchObject({ code: "auth/user-not-found" });
    const account = await call("GET", `/users/${buyer.uid}`, admin);
    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ email: null, disabled: true, deletedAt: expect.any(String) });
    expect((await call("GET", `/users/${quiet.uid}`, admin)).statusCode).toBe(404);
    expect(
      (await call("GET", "/users?deleted[eq]=true", admin)).json().data.map((row: { uid: string }) => row.uid),
    ).toContain(buyer.uid);
    expect((await trailOf(quiet.uid)).map((row) => row.action)).toEqual(["user.deleted"]);
    expect((await call("DELETE", `/users/${quiet.uid}`, admin)).statusCode).toBe(404);
  });

  it("reconciliation mirrors accounts made outside the portal and anonymises rows whose account is gone", async () => {
    const outside = await app.ctx.identity.auth.createUser({
      email: `outside-${Date.now()}@example.test`,
      displayName: "Olga Outside",
    });
    const gone = await createUser(test, "customer", "Gary Gone");
    await call("GET", "/auth/account", gone);
    // Its row must be older than the walk, as a real one would be.
    await app.ctx.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(users.uid, gone.uid));
    await app.ctx.identity.auth.deleteUser(gone.uid);
    const result = await reconcileUsers(app.ctx.db, app.ctx.identity.auth);
    expect(result.mirrored).toBeGreaterThan(0);
    const [mirrored] = await app.ctx.db.select().from(users).where(eq(users.uid, outside.uid));
    expect(mirrored).toMatchObject({
      email: outside.email,
      displayName: "Olga Outside",
      role: "customer",
      deletedAt: null,
    });
    const [anonymised] = await app.ctx.db.select().from(users).where(eq(users.uid, gone.uid));
    expect(anonymised).toMatchObject({ email: null, displayName: null });
    expect(anonymised.deletedAt).toBeInstanceOf(Date);
  });

  it("the account stream is the user's own", async () => {
    expect((await call("GET", `/users/${customer.uid}/listen`, admin)).statusCode).toBe(403);
    expect((await call("GET", `/users/${customer.uid}/listen`, null)).statusCode).toBe(401);
  });
});
