import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, dealerProfiles, notifications } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import {
  ageSessions,
  apiDatabases,
  createUser,
  createUsers,
  signIn,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "DEALERS64K" });

describe.each(apiDatabases)("dealers on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const requests = requestsTo(() => app);
  const { call, upload, storeFirmware } = requests;
  let admin: TestUser;
  let seller: TestUser;
  let customer: TestUser;
  let sellerProfileId: string;

  /** A user applies to become a dealer; answers the application's id. */
  const apply = async (user: TestUser, businessName: string) => {
    const answer = await call("POST", "/dealers", user, {
      businessName,
      address: "2 Boost Road, Leeds LS1 1AA",
      registrationNumber: "09876543",
      phone: "+44 113 496 0000",
      website: "https://boost.example.com",
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().id as string;
  };
  const fresh = async (user: TestUser): Promise<TestUser> => ({
    ...user,
    token: await signIn(test.emulatorHost, user.email, user.password),
  });

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, seller, customer] = await createUsers(test, ["admin", ["dealer", "Sam Seller"], "customer"]);
    await Promise.all([admin, seller, customer].map((user) => call("GET", "/tune-files", user)));
    // An approved dealer with one published tune for a firmware that a catalogued Golf R runs, and one draft.
    sellerProfileId = await apply(seller, "Boost Works");
    await app.ctx.db
      .update(dealerProfiles)
      .set({ status: "approved", country: "GB" })
      .where(eq(dealerProfiles.id, sellerProfileId));
    await storeFirmware(admin, demo);
    expect(
      (
        await call("PUT", "/firmware-support/supported-vehicle", admin, {
          make: "Volkswagen",
          model: "Golf R",
          engine: "EA888 2.0 TSI",
          yearFrom: 2015,
          ecu: "Simos 18.10",
          firmwareIds: [demo.firmware.firmwareId],
        })
      ).statusCode,
    ).toBe(201);
    const published = await upload("/tune-files", seller, demo.tune.image, { title: "Golf R Stage 1" });
    expect(published.statusCode, published.body).toBe(201);
    await readyPayouts(app, seller.uid);
    expect(
      (await call("PUT", `/tune-files/${published.json().id}/publish`, seller, { priceCents: 24900, currency: "EUR" }))
        .statusCode,
    ).toBe(200);
    expect((await upload("/tune-files", seller, demo.tune.image, { title: "Draft" })).statusCode).toBe(201);
  });
  afterAll(async () => test?.close());

  it("lists approved dealers to anyone, with the vehicles and firmware their published tunes cover", async () => {
    const pending = await createUser(test, "customer");
    await apply(pending, "Pending Tuning");
    const anonymous = await call("GET", "/dealers", null);
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const page = anonymous.json();
    expect(page.data.map((d: { businessName: string }) => d.businessName)).toEqual(["Boost Works"]);
    expect(page.data[0]).toEqual({
      id: sellerProfileId,
      businessName: "Boost Works",
      country: "GB",
      website: "https://boost.example.com",
      status: "approved",
      logoSha256: null,
      about: null,
      firmwareIds: [demo.firmware.firmwareId],
      vehicles: [{ make: "Volkswagen", model: "Golf R" }],
      publishedTunes: 1,
      createdAt: expect.any(String),
    });
    // A customer sees the same directory, without anyone's contact details.
    const seen = (await call("GET", "/dealers", customer)).json().data;
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty("email");
  });

  it("finds a dealer by a vehicle they tune, and filters by country", async () => {
    expect((await call("GET", "/dealers?q=golf", null)).json().data.map((d: { id: string }) => d.id)).toEqual([
      sellerProfileId,
    ]);
    expect((await call("GET", "/dealers?q=corolla", null)).json().data).toEqual([]);
    expect((await call("GET", "/dealers?country[eq]=DE", null)).json().data).toEqual([]);
    expect((await call("GET", "/dealers?sort=secret", null)).statusCode).toBe(400);
  });

  it("shows admins every profile with its status and contact details", async () => {
    const page = (await call("GET", "/dealers?status[eq]=pending", admin)).json();
    expect(page.data.length).toBeGreaterThanOrEqual(1);
    expect(page.data.every((d: { status: string }) => d.status === "pending")).toBe(true);
    expect(page.data[0]).toMatchObject({
      email: expect.stringContaining("@example.test"),
      address: "2 Boost Road, Leeds LS1 1AA",
      statusReason: null,
    });
    expect((await call("GET", "/dealers", { ...admin, token: "not-a-token" })).statusCode).toBe(401);
  });

  it("hides an application from everyone but admins and the applicant", async () => {
    const applicant = await createUser(test, "customer");
    const id = await apply(applicant, "Hidden Garage");
    expect((await call("GET", `/dealers/${id}`, null)).statusCode).toBe(404);
    expect((await call("GET", `/dealers/${id}`, customer)).statusCode).toBe(404);
    expect((await call("GET", `/dealers/${id}`, applicant)).json()).toMatchObject({
      id,
      status: "pending",
      email: applicant.email,
    });
    expect((await call("GET", `/dealers/${id}`, admin)).json()).toMatchObject({ id, status: "pending" });
    expect((await call("GET", `/users/${applicant.uid}/dealer`, applicant)).json()).toMatchObject({
      id,
      businessName: "Hidden Garage",
    });
    expect((await call("GET", `/users/${applicant.uid}/dealer`, customer)).statusCode).toBe(403);
    expect((await call("GET", `/users/${customer.uid}/dealer`, customer)).statusCode).toBe(404);
  });

  it("approves an application: the claim is set, old tokens stop working, the dealer is told why and can sell", async () => {
    let applicant = await createUser(test, "customer");
    const id = await apply(applicant, "New Tuner Ltd");
    expect(
      (await call("PATCH", `/dealers/${id}/status`, customer, { status: "approved", reason: "looks good" })).statusCode,
    ).toBe(403);
    const noReason = await call("PATCH", `/dealers/${id}/status`, admin, { status: "approved", reason: "" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().data).toEqual([expect.objectContaining({ path: "reason" })]);

    applicant = await ageSessions(test, applicant);
    const approved = await call("PATCH", `/dealers/${id}/status`, admin, {
      status: "approved",
      reason: "Documents checked",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: "approved",
      statusReason: "Documents checked",
      statusChangedAt: expect.any(String),
    });
    // The token from before the change was revoked: the next call needs a new one, which carries the role.
    expect((await call("GET", "/tune-files", applicant)).statusCode).toBe(401);
    applicant = await fresh(applicant);
    expect((await upload("/tune-files", applicant, demo.tune.image, { title: "First tune" })).statusCode).toBe(201);
    const [told] = await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, applicant.uid));
    expect(told).toMatchObject({ kind: "dealer.approved", title: "New Tuner Ltd is approved as a dealer" });
    expect(told.body).toContain("Documents checked");

    // The same status again changes nothing and tells nobody.
    expect(
      (await call("PATCH", `/dealers/${id}/status`, admin, { status: "approved", reason: "again" })).statusCode,
    ).toBe(200);
    expect(
      await app.ctx.db.select().from(notifications).where(eq(notifications.recipientUid, applicant.uid)),
    ).toHaveLength(1);

    // Approved may only be suspended; the refusal names what is possible.
    const wrong = await call("PATCH", `/dealers/${id}/status`, admin, {
      status: "rejected",
      reason: "changed my mind",
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().description).toBe("a approved dealer cannot become rejected; it can become suspended");
  });

  it("suspends a dealer at once and reinstates them", async () => {
    let applicant = await createUser(test, "customer");
    const id = await apply(applicant, "Risky Remaps");
    expect(
      (await call("PATCH", `/dealers/${id}/status`, admin, { status: "approved", reason: "all good" })).statusCode,
    ).toBe(200);
    applicant = await ageSessions(test, await fresh(applicant));
    const suspended = await call("PATCH", `/dealers/${id}/status`, admin, {
      status: "suspended",
      reason: "Chargebacks under review",
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await call("GET", "/tune-files", applicant)).statusCode).toBe(401);
    applicant = await fresh(applicant);
    expect((await upload("/tune-files", applicant, demo.tune.image, { title: "Blocked" })).statusCode).toBe(403);
    expect((await call("GET", `/dealers/${id}`, null)).statusCode).toBe(404);
    const [told] = await app.ctx.db.select().from(notifications).where(eq(notifications.kind, "dealer.suspended"));
    expect(told.body).toContain("Chargebacks under review");

    applicant = await ageSessions(test, applicant);
    expect(
      (await call("PATCH", `/dealers/${id}/status`, admin, { status: "approved", reason: "Resolved" })).json(),
    ).toMatchObject({ status: "approved" });
    applicant = await fresh(applicant);
    expect((await upload("/tune-files", applicant, demo.tune.image, { title: "Back" })).statusCode).toBe(201);
  });

  it("lets admins correct a profile, refusing a bad field, and remove one", async () => {
    const applicant = await createUser(test, "customer");
    const id = await apply(applicant, "Typo Tuning");
    const bad = await call("PATCH", `/dealers/${id}/admin`, admin, { country: "Germany" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data).toEqual([expect.objectContaining({ path: "country" })]);
    expect((await call("PATCH", `/dealers/${id}/admin`, admin, {})).statusCode).toBe(400);
    expect((await call("PATCH", `/dealers/${id}/admin`, admin, { status: "approved" })).statusCode).toBe(400);
    expect((await call("PATCH", `/dealers/${id}/admin`, customer, { country: "DE" })).statusCode).toBe(403);
    // The business identity changes only by a profile change request with its documents.
    const renamed = await call("PATCH", `/dealers/${id}/admin`, admin, {
      businessName: "Tuning Typo GmbH",
      country: "de",
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().data).toEqual([
      expect.objectContaining({ path: "businessName", message: expect.stringContaining("profile change request") }),
    ]);
    const fixed = await call("PATCH", `/dealers/${id}/admin`, admin, {
      country: "de",
      website: "https://typo.example.com",
    });
    expect(fixed.json()).toMatchObject({
      businessName: "Typo Tuning",
      country: "DE",
      website: "https://typo.example.com",
      status: "pending",
    });
    expect((await call("DELETE", `/dealers/${id}/admin`, admin)).statusCode).toBe(204);
    expect((await call("GET", `/dealers/${id}`, admin)).statusCode).toBe(404);
    expect((await call("DELETE", `/dealers/${id}/admin`, admin)).statusCode).toBe(404);
    // With the profile gone the user may apply again.
    await apply(applicant, "Tuning Typo GmbH");
  });

  it("lists a dealer's published catalogue to signed-in users, filterable by firmware, named by the business", async () => {
    const page = (await call("GET", `/dealers/${sellerProfileId}/tune-files`, customer)).json();
    expect(page.data.map((t: { title: string }) => t.title)).toEqual(["Golf R Stage 1"]);
    // The seller is named as the directory names them, not by the user's display name ("Sam Seller").
    expect(page.data[0].dealerName).toBe("Boost Works");
    expect((await call("GET", `/tune-files/${page.data[0].id}`, customer)).json().dealerName).toBe("Boost Works");
    expect(
      (await call("GET", `/dealers/${sellerProfileId}/tune-files?firmwareId[eq]=OTHER`, customer)).json().data,
    ).toEqual([]);
  });

  it("shows a visitor the tunes a dealer sells to anyone, in their public shape only", async () => {
    const offered = await upload("/tune-files", seller, demo.tune.image, { title: "Golf R Private" });
    expect(offered.statusCode, offered.body).toBe(201);
    const listed = await call("PUT", `/tune-files/${offered.json().id}/publish`, seller, {
      priceCents: 9900,
      currency: "EUR",
      buyerEmails: [customer.email],
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const anonymous = await call("GET", `/dealers/${sellerProfileId}/tune-files`, null);
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const page = anonymous.json();
    // Neither the draft nor the tune offered to one named buyer.
    expect(page.data).toEqual([
      {
        id: expect.any(String),
        dealerName: "Boost Works",
        firmwareId: demo.firmware.firmwareId,
        title: "Golf R Stage 1",
        description: expect.any(String),
        priceCents: 24900,
        currency: "EUR",
        mayView: expect.any(Boolean),
        mayDownload: expect.any(Boolean),
        updatedAt: expect.any(String),
      },
    ]);
    expect(anonymous.body).not.toContain(seller.uid);
    expect(anonymous.body).not.toContain(customer.email);
    // The named buyer, signed in, sees the tune offered to them.
    const theirs = (await call("GET", `/dealers/${sellerProfileId}/tune-files?sort=title`, customer)).json().data;
    expect(theirs.map((t: { title: string }) => t.title).sort()).toEqual(["Golf R Private", "Golf R Stage 1"]);
    // A dealer the directory does not show has no public catalogue either.
    const pending = await createUser(test, "customer");
    const pendingId = await apply(pending, "Hidden Tuning");
    expect((await call("GET", `/dealers/${pendingId}/tune-files`, null)).statusCode).toBe(404);
  });

  it("lets a dealer write what their page says about the business, which visitors read, and nobody else change it", async () => {
    const about = "Rolling road in Leeds since 2009.\nWe map VAG petrol engines for road and track.";
    const aboutOf = async () =>
      (
        await app.ctx.db
          .select({ about: dealerProfiles.about })
          .from(dealerProfiles)
          .where(eq(dealerProfiles.id, sellerProfileId))
      )[0].about;
    const saved = await call("PATCH", `/dealers/${sellerProfileId}/about`, seller, { about: `  ${about}  ` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: sellerProfileId, about });
    // A visitor reads it on the dealer's page and in the directory, as written (line breaks kept).
    const shown = await call("GET", `/dealers/${sellerProfileId}`, null);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().about).toBe(about);
    expect((await call("GET", "/dealers", null)).json().data[0].about).toBe(about);
    // The dealer's own changes are theirs: not audited.
    const audited = () => app.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "dealer.about-changed"));
    expect((await audited()).filter((row) => row.targetId === sellerProfileId)).toEqual([]);

    const tooLong = await call("PATCH", `/dealers/${sellerProfileId}/about`, seller, { about: "x".repeat(2001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().data).toEqual([
      expect.objectContaining({ path: "about", message: "about is at most 2000 characters" }),
    ]);
    expect((await call("PATCH", `/dealers/${sellerProfileId}/about`, seller, { about: 42 })).json().data).toEqual([
      expect.objectContaining({ path: "about" }),
    ]);
    expect((await call("PATCH", `/dealers/${sellerProfileId}/about`, seller, { about, website: "x" })).statusCode).toBe(
      400,
    );
    expect(await aboutOf()).toBe(about);

    // Another dealer, a customer and a visitor cannot change it: the profile is not theirs to name.
    const rival = await createUser(test, "dealer");
    const rivalId = await apply(rival, "Rival Remaps");
    await app.ctx.db.update(dealerProfiles).set({ status: "approved" }).where(eq(dealerProfiles.id, rivalId));
    expect((await call("PATCH", `/dealers/${sellerProfileId}/about`, rival, { about: "Cheap maps" })).statusCode).toBe(
      404,
    );
    expect(
      (await call("PATCH", `/dealers/${sellerProfileId}/about`, customer, { about: "Cheap maps" })).statusCode,
    ).toBe(404);
    expect((await call("PATCH", `/dealers/${sellerProfileId}/about`, null, { about: "Cheap maps" })).statusCode).toBe(
      401,
    );
    expect(await aboutOf()).toBe(about);

    // An admin may correct it, audited; an empty text clears it.
    const corrected = await call("PATCH", `/dealers/${sellerProfileId}/about`, admin, {
      about: "Rolling road in Leeds.",
    });
    expect(corrected.json().about).toBe("Rolling road in Leeds.");
    expect((await audited()).filter((row) => row.targetId === sellerProfileId)).toEqual([
      expect.objectContaining({
        actorUid: admin.uid,
        subjectUid: seller.uid,
        before: { about },
        after: { about: "Rolling road in Leeds." },
      }),
    ]);
    expect((await call("PATCH", `/dealers/${sellerProfileId}/about`, seller, { about: "  " })).json().about).toBeNull();
    expect(await aboutOf()).toBeNull();
  });
});
