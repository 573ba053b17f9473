import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contactRequests,
  dealerProfiles,
  demoRequests,
  profilePictures,
  supportedVehicles,
  users,
} from "../../server/db/schema";
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
import { multipart } from "./support/multipart";
import { contactMessage } from "./support/public-site-forms";

const contact = contactMessage;
const demo = {
  name: "Alex Tuner",
  email: "alex@shop.example.test",
  businessName: "Alex Tuning Ltd",
  phone: "+44 20 7946 0958",
  country: "UK",
  platforms: "VAG, BMW",
  message: "",
};
const dealer = {
  businessName: "Fast Lane Tuning",
  address: "1 Dyno Road, Leeds LS1 1AA",
  registrationNumber: "12345678",
  vatNumber: "GB123456789",
  website: "https://fastlane.example.test",
  phone: "+44 113 496 0000",
};

describe.each(apiDatabases)("public site API on %s", (kind) => {
  let test: TestApp;
  let customer: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    test = await startTestApp(kind);
    [customer, admin] = await createUsers(test, ["customer", "admin"]);
  });
  afterAll(async () => test?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = "10.0.0.1") =>
    test.app.inject({ method: "POST", url, payload: payload as object, headers, remoteAddress });

  describe("contact requests", () => {
    it("stores a message from a visitor without an account", async () => {
      const response = await post("/api/v1/contact-requests", contact);
      expect(response.statusCode).toBe(201);
      const { id } = response.json();
      const [row] = await test.app.ctx.db.select().from(contactRequests).where(eq(contactRequests.id, id));
      expect(row).toMatchObject({
        name: "Sam Driver",
        email: "sam@example.test",
        topic: "vehicle-support",
        message: contact.message,
      });
    });

    it("refuses a missing field and an unknown field with 400 naming them, storing nothing", async () => {
      const before = await test.app.ctx.db.$count(contactRequests);
      const response = await post(
        "/api/v1/contact-requests",
        { ...contact, message: "short", role: "admin" },
        {},
        "10.0.0.2",
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().data).toEqual(
        expect.arrayContaining([
          { path: "message", message: "Write at least 10 characters" },
          { path: "role", message: 'Unknown field "role"' },
        ]),
      );
      expect(await test.app.ctx.db.$count(contactRequests)).toBe(before);
    });

    it("answers 429 to the sixth message from one address within ten minutes", async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await post("/api/v1/contact-requests", contact, {}, "10.0.0.3")).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
      const refused = await post("/api/v1/contact-requests", contact, {}, "10.0.0.3");
      expect(refused.json()).toMatchObject({ statusCode: 429, message: "Too many requests" });
      // Another visitor is not affected.
      expect((await post("/api/v1/contact-requests", contact, {}, "10.0.0.4")).statusCode).toBe(201);
    });

    it("lists messages for admins only, newest first", async () => {
      expect((await test.app.inject({ method: "GET", url: "/api/v1/contact-requests" })).statusCode).toBe(401);
      expect(
        (await test.app.inject({ method: "GET", url: "/api/v1/contact-requests", headers: bearer(customer.token) }))
          .statusCode,
      ).toBe(403);
      const response = await test.app.inject({
        method: "GET",
        url: "/api/v1/contact-requests?pageSize=2",
        headers: bearer(admin.token),
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.total).toBeGreaterThanOrEqual(7);
      expect(body.data).toHaveLength(2);
      expect(new Date(body.data[0].createdAt) >= new Date(body.data[1].createdAt)).toBe(true);
    });
  });

  describe("demo requests", () => {
    it("stores a request, with blank optional fields as empty", async () => {
      const response = await post("/api/v1/demo-requests", demo, {}, "10.0.1.1");
      expect(response.statusCode).toBe(201);
      const [row] = await test.app.ctx.db.select().from(demoRequests).where(eq(demoRequests.id, response.json().id));
      expect(row).toMatchObject({ businessName: "Alex Tuning Ltd", phone: "+44 20 7946 0958", message: null });
    });

    it("names each missing field in plain words", async () => {
      const response = await post("/api/v1/demo-requests", {}, {}, "10.0.1.3");
      expect(response.statusCode).toBe(400);
      expect(response.json().data).toEqual([
        { path: "name", message: "Enter your name" },
        { path: "email", message: "Enter your email" },
        { path: "businessName", message: "Enter your business name" },
      ]);
    });

    it("refuses a bad email and a bad phone number", async () => {
      const response = await post(
        "/api/v1/demo-requests",
        { ...demo, email: "not-an-email", phone: "call me" },
        {},
        "10.0.1.2",
      );
      expect(response.statusCode).toBe(400);
      expect(
        response
          .json()
          .data.map((issue: { path: string }) => issue.path)
          .sort(),
      ).toEqual(["email", "phone"]);
    });

    it("is listed for admins", async () => {
      const response = await test.app.inject({
        method: "GET",
        url: "/api/v1/demo-requests",
        headers: bearer(admin.token),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data[0]).toMatchObject({ businessName: "Alex Tuning Ltd" });
    });
  });

  describe("supported vehicles", () => {
    it("lists vehicle families to visitors, without firmware identifiers", async () => {
      await test.app.ctx.db.insert(supportedVehicles).values([
        {
          make: "Volkswagen",
          model: "Golf R",
          generation: "Mk7",
          engine: "2.0 TSI EA888",
          yearFrom: 2014,
          yearTo: 2020,
          ecu: "Simos 18.1",
          firmwareIds: ["SC8L0"],
        },
        {
          make: "BMW",
          model: "M140i",
          generation: "F20",
          engine: "B58",
          yearFrom: 2016,
          yearTo: 2019,
          ecu: "MEVD17.2.4",
          firmwareIds: [],
        },
      ]);
      const response = await test.app.inject({ method: "GET", url: "/api/v1/public/supported-vehicles" });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual([
        { make: "BMW", model: "M140i", generation: "F20", engine: "B58", yearFrom: 2016, yearTo: 2019 },
        {
          make: "Volkswagen",
          model: "Golf R",
          generation: "Mk7",
          engine: "2.0 TSI EA888",
          yearFrom: 2014,
          yearTo: 2020,
        },
      ]);
    });
  });

  describe("dealer account request", () => {
    it("needs a signed-in user", async () => {
      expect((await post("/api/v1/dealers", dealer)).statusCode).toBe(401);
    });

    it("creates one pending dealer profile per user; a second request is a conflict", async () => {
      const user = await createUser(test, "customer");
      const first = await post("/api/v1/dealers", dealer, bearer(user.token));
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ businessName: "Fast Lane Tuning", status: "pending" });
      const second = await post("/api/v1/dealers", { ...dealer, businessName: "Other" }, bearer(user.token));
      expect(second.statusCode).toBe(409);
      const rows = await test.app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, user.uid));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        status: "pending",
        vatNumber: "GB123456789",
        website: "https://fastlane.example.test",
      });
    });

    it("cannot be used to set its own status", async () => {
      const user = await createUser(test, "customer");
      const response = await post("/api/v1/dealers", { ...dealer, status: "approved" }, bearer(user.token));
      expect(response.statusCode).toBe(400);
      expect(
        await test.app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, user.uid)),
      ).toHaveLength(0);
    });

    it("under concurrent requests still creates one profile", async () => {
      const user = await createUser(test, "customer");
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => post("/api/v1/dealers", dealer, bearer(user.token))),
      );
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
      expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(9);
    });
  });

  describe("profile picture", () => {
    const image = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: { r: 200, g: 20, b: 40 } } })
        .png()
        .toBuffer();

    it("stores an uploaded image resized to a 256 px WebP square and points photoURL at it", async () => {
      const user = await createUser(test, "customer");
      const form = multipart([{ name: "file", filename: "me.png", content: await image(900, 600) }]);
      const response = await test.app.inject({
        method: "POST",
        url: `/api/v1/users/${user.uid}/profile-picture`,
        ...form,
        headers: { ...form.headers, ...bearer(user.token) },
      });
      expect(response.statusCode).toBe(201);
      const { photoURL } = response.json();
      expect((await test.app.ctx.identity.auth.getUser(user.uid)).photoURL).toBe(photoURL);
      const served = await test.app.inject({ method: "GET", url: new URL(photoURL).pathname });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });
    });

    it("refuses a file that is not an image, another user's picture and a file over 5 MiB", async () => {
      const user = await createUser(test, "customer");
      const url = `/api/v1/users/${user.uid}/profile-picture`;
      const text = multipart([{ name: "file", filename: "me.png", content: Buffer.from("not an image at all") }]);
      const notImage = await test.app.inject({
        method: "POST",
        url,
        ...text,
        headers: { ...text.headers, ...bearer(user.token) },
      });
      expect(notImage.statusCode).toBe(415);
      const other = multipart([{ name: "file", filename: "me.png", content: await image(10, 10) }]);
      const forbidden = await test.app.inject({
        method: "POST",
        url,
        ...other,
        headers: { ...other.headers, ...bearer(customer.token) },
      });
      expect(forbidden.statusCode).toBe(403);
      const big = multipart([{ name: "file", filename: "big.png", content: Buffer.alloc(5 * 1024 * 1024 + 1) }]);
      const tooBig = await test.app.inject({
        method: "POST",
        url,
        ...big,
        headers: { ...big.headers, ...bearer(user.token) },
      });
      expect(tooBig.statusCode).toBe(413);
      expect(
        await test.app.ctx.db.select().from(profilePictures).where(eq(profilePictures.userUid, user.uid)),
      ).toHaveLength(0);
    });

    it("does not serve other blobs through the picture address", async () => {
      const response = await test.app.inject({ method: "GET", url: `/api/v1/profile-pictures/${"a".repeat(64)}` });
      expect(response.statusCode).toBe(404);
    });
  });

  describe("signing out of all devices", () => {
    it("revokes refresh tokens: the token issued before is refused afterwards", async () => {
      const user = await ageSessions(test, await createUser(test, "customer"));
      const response = await post(`/api/v1/users/${user.uid}/revoke-sessions`, {}, bearer(user.token));
      expect(response.statusCode).toBe(204);
      const after = await test.app.inject({ method: "GET", url: "/api/v1/auth/account", headers: bearer(user.token) });
      expect(after.statusCode).toBe(401);
    });

    it("is refused for another user", async () => {
      expect((await post(`/api/v1/users/${admin.uid}/revoke-sessions`, {}, bearer(customer.token))).statusCode).toBe(
        403,
      );
    });
  });

  describe("deleting an account", () => {
    it("removes the identity user and our rows", async () => {
      const user = await createUser(test, "customer");
      await post("/api/v1/dealers", dealer, bearer(user.token));
      const response = await test.app.inject({
        method: "DELETE",
        url: `/api/v1/users/${user.uid}`,
        headers: bearer(user.token),
      });
      expect(response.statusCode).toBe(204);
      expect(await test.app.ctx.db.select().from(users).where(eq(users.uid, user.uid))).toHaveLength(0);
      expect(
        await test.app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, user.uid)),
      ).toHaveLength(0);
      await expect(test.app.ctx.identity.auth.getUser(user.uid)).rejects.toMatchObject({ code: "auth/user-not-found" });
    });

    it("is refused for another user's account", async () => {
      const response = await test.app.inject({
        method: "DELETE",
        url: `/api/v1/users/${admin.uid}`,
        headers: bearer(customer.token),
      });
      expect(response.statusCode).toBe(403);
      expect(await test.app.ctx.db.select().from(users).where(eq(users.uid, admin.uid))).toHaveLength(1);
    });

    it("needs a recent sign-in", async () => {
      const user = await createUser(test, "customer");
      const { auth } = test.app.ctx.identity;
      // The emulator accepts unsigned tokens: one that says the sign-in was an hour ago, for an account
      // whose tokens are valid since two hours ago (else it reads as revoked).
      const validSince = Math.floor(Date.now() / 1000) - 7200;
      const update = await fetch(
        `http://${test.emulatorHost}/identitytoolkit.googleapis.com/v1/projects/${test.projectId}/accounts:update`,
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer owner" },
          body: JSON.stringify({ localId: user.uid, validSince: String(validSince) }),
        },
      );
      expect(update.status).toBe(200);
      const token = await signIn(test.emulatorHost, user.email, user.password);
      const [header, payload] = token.split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const stale = `${header}.${Buffer.from(JSON.stringify({ ...claims, auth_time: claims.auth_time - 3600 })).toString("base64url")}.`;
      const response = await test.app.inject({
        method: "DELETE",
        url: `/api/v1/users/${user.uid}`,
        headers: bearer(stale),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().data).toEqual([{ path: "auth_time", message: "requires-recent-login" }]);
      expect((await auth.getUser(user.uid)).uid).toBe(user.uid);
    });
  });
});
