import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Notification, NotificationPage } from "../../contracts/notifications";
import { notifications } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { listen } from "./support/event-stream-client";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { firmwareRecordOf, requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "NOTIFY64K" });
const vehicle = { vin: "WVWZZZAUZKW654321", make: "Volkswagen", model: "Golf GTI", year: 2018, ecuIds: ["5G0906259L"] };

describe.each(apiDatabases)("notifications API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let port: number;
  let admin: TestUser;
  let customer: TestUser;
  let other: TestUser;
  let closed = false;

  const inbox = async (user: TestUser, query = "", owner = user) => {
    const response = await call("GET", `/users/${owner.uid}/notifications${query}`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as NotificationPage;
  };
  const askForSupport = async (user: TestUser) => {
    const response = await call("POST", "/user-vehicles/support-request", user, vehicle);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const work = async (id: string, change: Record<string, unknown>) => {
    const response = await call("PATCH", `/user-vehicles/support-request/${id}`, admin, change);
    expect(response.statusCode, response.body).toBe(200);
  };
  const sessionCookie = async (user: TestUser) => {
    const response = await app.inject({ method: "POST", url: "/api/__session", payload: { token: user.token } });
    const cookie = response.cookies.find((c) => c.name === "__session");
    if (!cookie) throw new Error(`no session cookie: ${response.body}`);
    return `__session=${cookie.value}`;
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, customer, other] = await createUsers(test, ["admin", "customer", "customer"]);
    const firmware = await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(demo));
    expect(firmware.statusCode, firmware.body).toBe(201);
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    if (!closed) await test?.close();
  });

  it("tells the requester when their support request is investigated and supported, naming the firmware", async () => {
    const requestId = await askForSupport(customer);
    expect((await inbox(customer)).total).toBe(0);

    await work(requestId, { status: "investigating", note: "a full read would help" });
    await work(requestId, { note: "the read arrived" });
    await work(requestId, { status: "supported", firmwareId: "NOTIFY64K" });

    const page = await inbox(customer);
    expect(page.total, "one notification per change of status, none for a note alone").toBe(2);
    expect(page.unreadCount).toBe(2);
    const [supported, investigating] = page.data;
    expect(supported).toMatchObject({
      kind: "support-request.supported",
      recipientUid: customer.uid,
      link: "/my-tunes",
      readAt: null,
    });
    expect(supported.title).toContain("Volkswagen Golf GTI");
    expect(supported.body).toContain("firmware NOTIFY64K");
    expect(investigating).toMatchObject({ kind: "support-request.investigating" });
    expect(investigating.body).toContain("a full read would help");
    expect(Date.parse(supported.createdAt)).toBeGreaterThanOrEqual(Date.parse(investigating.createdAt));
  });

  it("tells the requester of a rejection with the admin's note, and nobody of a refused change", async () => {
    const requestId = await askForSupport(customer);
    await work(requestId, { status: "rejected", note: "this ECU is locked by the manufacturer" });
    const [rejected] = (await inbox(customer)).data;
    expect(rejected).toMatchObject({ kind: "support-request.rejected", link: "/contact-us" });
    expect(rejected.body).toContain("Reason: this ECU is locked by the manufacturer");

    const before = await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, customer.uid));
    const reopen = await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, {
      status: "investigating",
    });
    expect(reopen.statusCode).toBe(409);
    const unknownFirmware = await call(
      "PATCH",
      `/user-vehicles/support-request/${await askForSupport(customer)}`,
      admin,
      { status: "supported", firmwareId: "NOPE1" },
    );
    expect(unknownFirmware.statusCode).toBe(400);
    const after = await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, customer.uid));
    expect(after, "a refused change writes no notification").toHaveLength(before.length);
  });

  it("notifies once when admins mark the same request supported at the same moment", async () => {
    const requestId = await askForSupport(other);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, {
          status: "supported",
          firmwareId: "NOTIFY64K",
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    const rows = await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, other.uid));
    expect(rows.map((n) => n.kind)).toEqual(["support-request.supported"]);
    await app.ctx.db.delete(notifications).where(eq(notifications.recipientUid, other.uid));
  });

  it("publishes a notification only once its transaction commits, and neither stores nor publishes one rolled back", async () => {
    await inbox(other); // mirrors the user, whom notifications refer to
    const heard: string[] = [];
    const unsubscribe = app.ctx.notifications.subscribe(other.uid, (event) => {
      if (event.type === "created") heard.push(event.notification.title);
    });
    try {
      const rolledBack = app.ctx.notifications.transaction(async (_tx, notify) => {
        await notify({ recipientUid: other.uid, kind: "support-request.investigating", title: "never sent" });
        throw new Error("the change failed after notifying");
      });
      await expect(rolledBack).rejects.toThrow("the change failed");
      expect(heard).toEqual([]);
      expect(await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, other.uid))).toEqual(
        [],
      );

      let heardBeforeCommit: string[] = [];
      await app.ctx.notifications.transaction(async (_tx, notify) => {
        await notify({ recipientUid: other.uid, kind: "support-request.investigating", title: "sent" });
        heardBeforeCommit = [...heard];
      });
      expect(heardBeforeCommit).toEqual([]);
      // Events reach the streams in order (on PostgreSQL through NOTIFY, after the publish returned):
      // had the rolled-back one been published, it would come before this one.
      await expect.poll(() => heard).toEqual(["sent"]);
    } finally {
      unsubscribe();
      await app.ctx.db.delete(notifications).where(eq(notifications.recipientUid, other.uid));
    }
  });

  it("shows a user only their own notifications; an admin may read anyone's", async () => {
    expect((await inbox(other)).total).toBe(0);
    const [mine] = (await inbox(customer)).data;

    const peek = await call("GET", `/users/${customer.uid}/notifications`, other);
    expect(peek.statusCode).toBe(403);
    expect(peek.json().description).toBe("You can only act on your own account");
    expect(
      (await call("PATCH", `/users/${customer.uid}/notifications/${mine.id}`, other, { read: true })).statusCode,
    ).toBe(403);
    const viaOwnPath = await call("PATCH", `/users/${other.uid}/notifications/${mine.id}`, other, { read: true });
    expect(viaOwnPath.statusCode).toBe(404);
    expect(viaOwnPath.json().description).toBe(`Notification ${mine.id} does not exist`);
    expect((await call("POST", `/users/${customer.uid}/notifications/mark-all-read`, other)).statusCode).toBe(403);
    const [stored] = await app.ctx.db.select().from(notifications).where(eq(notifications.id, mine.id));
    expect(stored.readAt, "another user's attempts left it unread").toBeNull();

    const asAdmin = await inbox(admin, "", customer);
    expect(asAdmin.total).toBe((await inbox(customer)).total);
  });

  it("marks one read and unread again, then all read; the unread filter and count follow", async () => {
    const start = await inbox(customer);
    expect(start.unreadCount).toBe(start.total);
    const [first, second] = start.data;

    const read = await call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, customer, { read: true });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().readAt).not.toBeNull();
    const unread = await inbox(customer, "?unread[eq]=true");
    expect(unread.unreadCount).toBe(start.total - 1);
    expect(unread.total).toBe(start.total - 1);
    expect(unread.data.map((n) => n.id)).not.toContain(first.id);

    const again = await call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, customer, { read: true });
    expect(again.json().readAt, "reading it again keeps the first read time").toBe(read.json().readAt);
    const unreadAgain = await call("PATCH", `/users/${customer.uid}/notifications/${first.id}`, customer, {
      read: false,
    });
    expect(unreadAgain.json().readAt).toBeNull();

    const bad = await call("PATCH", `/users/${customer.uid}/notifications/${second.id}`, customer, { read: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data[0]).toMatchObject({ path: "read", message: "read must be true or false" });
    const extra = await call("PATCH", `/users/${customer.uid}/notifications/${second.id}`, customer, {
      read: true,
      title: "changed",
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().data).toContainEqual({ path: "title", message: 'Unknown field "title"' });
    const notAnId = await call("PATCH", `/users/${customer.uid}/notifications/42`, customer, { read: true });
    expect(notAnId.statusCode).toBe(400);
    const [untouched] = await app.ctx.db.select().from(notifications).where(eq(notifications.id, second.id));
    expect(untouched).toMatchObject({ readAt: null, title: second.title });

    const all = await call("POST", `/users/${customer.uid}/notifications/mark-all-read`, customer);
    expect(all.json()).toEqual({ updated: start.total, unreadCount: 0 });
    expect((await inbox(customer, "?unread[eq]=true")).total).toBe(0);
    expect((await inbox(customer)).total).toBe(start.total);

    const badFilter = await call("GET", `/users/${customer.uid}/notifications?title[eq]=x`, customer);
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().description).toContain('Cannot filter by "title"');
  });

  it("pages newest first", async () => {
    const total = (await inbox(customer)).total;
    const first = await inbox(customer, "?pageSize=2&page=1");
    const second = await inbox(customer, "?pageSize=2&page=2");
    expect(first.data).toHaveLength(2);
    const ids = [...first.data, ...second.data].map((n) => n.id);
    expect(new Set(ids).size, "pages do not overlap").toBe(ids.length);
    const times = [...first.data, ...second.data].map((n) => Date.parse(n.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.total).toBe(total);
  });

  it("pushes a new notification and the unread count to the listen stream, authenticated by the session cookie", async () => {
    const stream = await listen(port, `/api/v1/users/${customer.uid}/notifications/listen`, {
      cookie: await sessionCookie(customer),
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain("text/event-stream");
      const { unreadCount } = (await stream.next("unread")).data as { unreadCount: number };

      await work(await askForSupport(customer), { status: "supported", firmwareId: "NOTIFY64K" });
      const pushed = (await stream.next("notification")).data as Notification;
      expect(pushed).toMatchObject({ kind: "support-request.supported", recipientUid: customer.uid, readAt: null });
      expect(pushed.body).toContain("NOTIFY64K");
      expect((await stream.next("unread")).data).toEqual({ unreadCount: unreadCount + 1 });

      await call("PATCH", `/users/${customer.uid}/notifications/${pushed.id}`, customer, { read: true });
      expect((await stream.next("unread")).data, "reading it lowers the count on the stream").toEqual({ unreadCount });
    } finally {
      stream.close();
    }
  });

  it("pushes nothing about one user to another user's stream", async () => {
    const stream = await listen(port, `/api/v1/users/${other.uid}/notifications/listen`, bearer(other.token));
    try {
      expect((await stream.next("unread")).data).toEqual({ unreadCount: 0 });
      await work(await askForSupport(customer), { status: "investigating" });
      await expect(stream.next("notification", 500)).rejects.toThrow('no "notification" event');
    } finally {
      stream.close();
    }
  });

  it("refuses the listen stream without a session, and for someone else's notifications", async () => {
    const anonymous = await app.inject({ method: "GET", url: `/api/v1/users/${customer.uid}/notifications/listen` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, description: "Missing bearer token" });
    const forged = await app.inject({
      method: "GET",
      url: `/api/v1/users/${customer.uid}/notifications/listen`,
      cookies: { __session: "not-a-session" },
    });
    expect(forged.statusCode).toBe(401);
    const cookie = await sessionCookie(other);
    const someoneElse = await app.inject({
      method: "GET",
      url: `/api/v1/users/${customer.uid}/notifications/listen`,
      headers: { cookie },
    });
    expect(someoneElse.statusCode).toBe(403);
  });

  it("ends open listen streams when the server shuts down, and closes within seconds", async () => {
    const streams = await Promise.all([
      listen(port, `/api/v1/users/${customer.uid}/notifications/listen`, { cookie: await sessionCookie(customer) }),
      listen(port, `/api/v1/users/${other.uid}/notifications/listen`, bearer(other.token)),
    ]);
    await Promise.all(streams.map((stream) => stream.next("unread")));
    // What server/main.ts does on SIGTERM.
    app.shuttingDown = true;
    const started = Date.now();
    closed = true;
    await test.close();
    await Promise.all(streams.map((stream) => stream.ended));
    expect(Date.now() - started).toBeLessThan(3000);
  }, 10_000);
});

describe("the server process (server/main.ts)", () => {
  it("exits 0 within seconds on SIGTERM while a browser listens to its notifications", async () => {
    const emulatorHost = inject("emulatorHost");
    const dataDir = path.resolve(".test-data", `main-${randomBytes(4).toString("hex")}`);
    const portFile = path.join(dataDir, "port");
    await mkdir(dataDir, { recursive: true });
    const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "test",
        PORT: "0",
        PORT_FILE: portFile,
        DATA_DIR: dataDir,
        DIST_DIR: ".test-data/no-dist",
        LOG_LEVEL: "warn",
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        FIREBASE_PROJECT_ID: inject("projectId"),
      },
    });
    let stderr = "";
    server.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
    try {
      let port = 0;
      for (let waited = 0; !port && waited < 60_000; waited += 200) {
        port = Number(await readFile(portFile, "utf8").catch(() => "0"));
        if (!port) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(port, `the server did not start: ${stderr}`).toBeGreaterThan(0);
      const signUp = await fetch(
        `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test-api-key`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: `listener-${randomBytes(4).toString("hex")}@example.test`,
            password: "test-password-1",
            returnSecureToken: true,
          }),
        },
      );
      const { idToken, localId } = (await signUp.json()) as { idToken: string; localId: string };
      const stream = await listen(port, `/api/v1/users/${localId}/notifications/listen`, bearer(idToken));
      expect((await stream.next("unread", 10_000)).data).toEqual({ unreadCount: 0 });

      const started = Date.now();
      server.kill("SIGTERM");
      expect(await exited, stderr).toBe(0);
      await stream.ended;
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
