/**
 * Mail that is really sent: every email goes through SMTP to the suite's local inbox, carries a link
 * to the portal's own email-action page, and that link's code works at the identity service (the
 * Auth emulator), as a user following it would use it.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app";
import { sendInvitation } from "../../server/services/mail";
import { apiDatabases, bearer, createUser, signIn, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { actionLinkOf, mailTo, waitForMail } from "./support/inbox";

/** A port nothing listens on: the mail server is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(apiDatabases)("mail (%s)", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  const identityCall = async (method: string, body: Record<string, unknown>) => {
    const response = await fetch(
      `http://${test.emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=test-api-key`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** A signed-in customer whose address is not verified yet, as after sign-up. */
  const newUser = async () => {
    const email = `mail-${randomBytes(5).toString("hex")}@example.test`;
    const record = await app.ctx.identity.auth.createUser({
      email,
      password: "test-password-1",
      displayName: "New <User>",
    });
    return {
      uid: record.uid,
      email,
      password: "test-password-1",
      token: await signIn(test.emulatorHost, email, "test-password-1"),
    };
  };
  const post = (url: string, user: TestUser | null, payload?: object) =>
    app.inject({
      method: "POST",
      url: `/api/v1/${url}`,
      headers: user ? bearer(user.token) : {},
      ...(payload && { payload }),
    });

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    admin = await createUser(test, "admin");
  });
  afterAll(async () => test?.close());

  it("emails a verification link to our action page, answering 202 once queued, and the link verifies the address", async () => {
    const user = await newUser();
    const response = await post(`auth/email/${user.uid}/verification`, user, {
      continuePath: "/confirm-account?to=%2Fmy-tunes",
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ sent: true, email: user.email });

    // Queued before the answer; the queue's mail worker hands it to the SMTP server a moment later.
    const [message] = await waitForMail(user.email);
    expect(message.subject).toBe("Confirm your email address for Tuning Portal");
    expect(message.from).toContain("no-reply@tuning-portal.localhost");
    expect(message.html, "the display name is escaped").toContain("Hello New &lt;User&gt;,");
    const link = actionLinkOf(message);
    expect(`${link.origin}${link.pathname}`).toBe(`${app.ctx.mail.portalUrl()}/handle-email-action`);
    expect(link.searchParams.get("mode")).toBe("verifyEmail");
    expect(link.searchParams.get("apiKey")).toBe(app.ctx.config.webApiKey);
    expect(link.searchParams.get("continueUrl")).toBe(`${app.ctx.mail.portalUrl()}/confirm-account?to=%2Fmy-tunes`);
    expect(message.text, "the text part carries the same link").toContain(link.toString());

    const applied = await identityCall("update", { oobCode: link.searchParams.get("oobCode") });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await app.ctx.identity.auth.getUser(user.uid)).emailVerified).toBe(true);
  });

  it("emails a password-reset link whose code sets a new password", async () => {
    const user = await newUser();
    const response = await post(`auth/email/${user.uid}/password-reset`, user);
    expect(response.statusCode, response.body).toBe(202);
    const link = actionLinkOf((await waitForMail(user.email))[0]);
    expect(link.searchParams.get("mode")).toBe("resetPassword");
    expect(link.searchParams.get("continueUrl")).toBe(
      `${app.ctx.mail.portalUrl()}/login?email=${encodeURIComponent(user.email)}`,
    );
    const reset = await identityCall("resetPassword", {
      oobCode: link.searchParams.get("oobCode"),
      newPassword: "another-password-2",
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await expect(signIn(test.emulatorHost, user.email, "another-password-2")).resolves.toEqual(expect.any(String));
  });

  it("refuses a continuePath that leaves the portal, naming the field, and sends nothing", async () => {
    const user = await newUser();
    for (const continuePath of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      const response = await post(`auth/email/${user.uid}/verification`, user, { continuePath });
      expect(response.statusCode, continuePath).toBe(400);
      expect(response.json().data[0].path).toBe("continuePath");
    }
    expect(await mailTo(user.email)).toEqual([]);
  });

  it("keeps retrying a message the mail server does not take, sealed and with its error, and answers 503 when the queue cannot take it", async () => {
    // Its own database: another app's mail worker on the same queue would deliver the message.
    const down = await startTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const user = await down.app.ctx.identity.auth.createUser({
        email: `down-${randomBytes(5).toString("hex")}@example.test`,
        password: "test-password-1",
      });
      const token = await signIn(test.emulatorHost, user.email!, "test-password-1");
      const response = await down.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/${user.uid}/verification`,
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(202);
      let job: Awaited<ReturnType<typeof down.app.ctx.jobs.list>>[number] | undefined;
      for (let i = 0; i < 100 && job?.state !== "retrying"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = (await down.app.ctx.jobs.list()).find((candidate) => candidate.kind === "mail.send");
      }
      expect(job).toMatchObject({
        state: "retrying",
        retries: 0,
        retryLimit: 5,
        error: expect.stringMatching(/ECONNREFUSED|connect/i),
      });
      // The message waits sealed: its one-time link is not readable in the queue's table.
      const stored = await down.app.ctx.db.execute(
        sql`SELECT data::text AS data FROM pgboss.job WHERE id = ${job!.id}::uuid`,
      );
      const data = (stored as unknown as { rows: { data: string }[] }).rows[0].data;
      expect(data).not.toContain("oobCode");
      expect(data).not.toContain(user.email);
      expect(await mailTo(user.email!)).toEqual([]);

      // A queue that is gone: 503 in our error shape, not 500 or 202.
      await down.app.ctx.jobs.stop();
      const refused = await down.app.inject({
        method: "POST",
        url: `/api/v1/auth/email/${user.uid}/password-reset`,
        headers: bearer(token),
      });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers["retry-after"]).toBe("5");
      expect(refused.json()).toEqual({
        statusCode: 503,
        message: "Mail not queued",
        description: expect.stringContaining("nothing will be sent"),
      });
    } finally {
      await down.close();
    }
  });

  it("sends a sign-in link, without signing in, to an address that has an account; the link signs in", async () => {
    const user = await newUser();
    const response = await post("auth/sign-in-link", null, {
      email: user.email,
      continuePath: "/create-email-account?to=%2Fmy-tunes",
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ accepted: true });
    const [message] = await waitForMail(user.email);
    expect(message.subject).toBe("Your Tuning Portal sign-in link");
    const link = actionLinkOf(message);
    expect(link.searchParams.get("mode")).toBe("signIn");
    expect(link.searchParams.get("continueUrl")).toBe(
      `${app.ctx.mail.portalUrl()}/create-email-account?to=%2Fmy-tunes`,
    );
    const signedIn = await identityCall("signInWithEmailLink", {
      email: user.email,
      oobCode: link.searchParams.get("oobCode"),
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.localId).toBe(user.uid);
  });

  it("answers a sign-in or reset link for an unknown or disabled address exactly as for a known one, and sends nothing", async () => {
    const unknown = `nobody-${randomBytes(5).toString("hex")}@example.test`;
    const disabled = await newUser();
    await app.ctx.identity.auth.updateUser(disabled.uid, { disabled: true });
    for (const email of [unknown, disabled.email]) {
      for (const path of ["auth/sign-in-link", "auth/password-reset-link"]) {
        const response = await post(path, null, { email });
        expect(response.statusCode, `${path} ${email}`).toBe(202);
        expect(response.json()).toEqual({ accepted: true });
      }
    }
    await app.ctx.mail.idle();
    expect(await mailTo(unknown)).toEqual([]);
    expect(await mailTo(disabled.email)).toEqual([]);
    // No account was made for the unknown address either.
    await expect(app.ctx.identity.auth.getUserByEmail(unknown)).rejects.toMatchObject({ code: "auth/user-not-found" });
  });

  it("sends a forgotten-password link by address", async () => {
    const user = await newUser();
    expect((await post("auth/password-reset-link", null, { email: user.email })).statusCode).toBe(202);
    const link = actionLinkOf((await waitForMail(user.email))[0]);
    expect(link.searchParams.get("mode")).toBe("resetPassword");
  });

  it("emails a copy of a notification only to users who turned emailNotifications on", async () => {
    const keen = await newUser();
    const quiet = await newUser();
    const on = await app.inject({
      method: "PATCH",
      url: `/api/v1/auth/account/${keen.uid}`,
      headers: bearer(keen.token),
      payload: { preferences: { emailNotifications: true } },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().profile.preferences.emailNotifications).toBe(true);
    // The quiet user's row exists too (mirrored on their first call), with the preference unset.
    expect(
      (await app.inject({ method: "GET", url: "/api/v1/auth/account", headers: bearer(quiet.token) })).statusCode,
    ).toBe(200);

    for (const user of [keen, quiet]) {
      const adjusted = await post(`users/${user.uid}/transaction`, admin, {
        amountCents: 1250,
        currency: "EUR",
        reason: "Goodwill for the delay",
      });
      expect(adjusted.statusCode, adjusted.body).toBe(201);
    }
    const [message] = await waitForMail(keen.email);
    expect(message.subject).toBe("Your balance was adjusted by 12.50 EUR");
    expect(message.text).toContain("Goodwill for the delay");
    expect(message.links).toContain(`${app.ctx.mail.portalUrl()}/my-tunes`);
    await app.ctx.mail.idle();
    expect(await mailTo(quiet.email)).toEqual([]);
  });

  it("never fails the action that made a notification when its email cannot be sent", async () => {
    const down = await buildApp(
      { ...app.ctx.config, smtpUrl: `smtp://127.0.0.1:${await closedPort()}` },
      { database: app.ctx.database, logger: false },
    );
    try {
      const keen = await newUser();
      const on = await down.inject({
        method: "PATCH",
        url: `/api/v1/auth/account/${keen.uid}`,
        headers: bearer(keen.token),
        payload: { preferences: { emailNotifications: true } },
      });
      expect(on.statusCode, on.body).toBe(200);
      const adjusted = await down.inject({
        method: "POST",
        url: `/api/v1/users/${keen.uid}/transaction`,
        headers: bearer(admin.token),
        payload: { amountCents: 500, currency: "EUR", reason: "Correction" },
      });
      expect(adjusted.statusCode, adjusted.body).toBe(201);
      await down.ctx.mail.idle();
      expect(await mailTo(keen.email)).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it("invites an account an admin created: its role and a link to choose a password", async () => {
    const email = `invited-${randomBytes(5).toString("hex")}@example.test`;
    const record = await app.ctx.identity.auth.createUser({ email, displayName: "Invited Dealer" });
    await sendInvitation(app.ctx, { uid: record.uid, email, displayName: "Invited Dealer", role: "dealer" });
    const [message] = await waitForMail(email);
    expect(message.subject).toBe("You have been invited to Tuning Portal");
    expect(message.text).toContain("as a dealer");
    const link = actionLinkOf(message);
    expect(link.searchParams.get("mode")).toBe("resetPassword");
    const set = await identityCall("resetPassword", {
      oobCode: link.searchParams.get("oobCode"),
      newPassword: "invited-password-3",
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await expect(signIn(test.emulatorHost, email, "invited-password-3")).resolves.toEqual(expect.any(String));

    // Another account's address is refused: the link would set that account's password.
    const other = await newUser();
    await expect(sendInvitation(app.ctx, { uid: record.uid, email: other.email, role: "customer" })).rejects.toThrow(
      /does not have the address/,
    );
    expect(await mailTo(other.email)).toEqual([]);
  });

  it("limits links asked for by address to 5 per client in 10 minutes (429)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await post("auth/password-reset-link", null, { email: `flood-${i}@example.test` })).statusCode);
    expect(statuses.slice(-1)).toEqual([429]);
    expect(statuses.filter((status) => status === 202).length).toBeLessThanOrEqual(5);
  });
});
