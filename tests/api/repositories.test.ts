import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dealerProfiles, ledgerEntries, notifications, tuneFilePurchases } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { carMaker } from "./support/flashing-setup";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "REPOS64K" });

describe.each(apiDatabases)("repositories: a dealer's private tunes on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let tuneId: string;
  let dealerProfileId: string;

  const car = carMaker(
    requestsTo(() => app),
    demo,
    "WREPZ",
  );
  const listed = async (user: TestUser) =>
    ((await call("GET", "/tune-files?published[eq]=true", user)).json().data as { id: string }[]).map(
      (tune) => tune.id,
    );
  const catalogue = async (user: TestUser) =>
    ((await call("GET", `/dealers/${dealerProfileId}/tune-files`, user)).json().data as { id: string }[]).map(
      (tune) => tune.id,
    );
  const notified = async (uid: string, kindOf: string) =>
    (
      await app.ctx.db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.recipientUid, uid), eq(notifications.kind, kindOf as "repository.granted")))
    )[0].n;

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, member, outsider] = await createUsers(test, [
      "admin",
      ["dealer", "Repo Dealer"],
      ["dealer", "Other Dealer"],
      ["customer", "Member Customer"],
      "customer",
    ]);
    // Every user signs in once, so the users table mirrors them (a member is found by email).
    await Promise.all([admin, dealer, otherDealer, member, outsider].map((user) => call("GET", "/tune-files", user)));
    const [profile] = await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Repo Tuning", status: "approved" })
      .returning();
    dealerProfileId = profile.id;
    await storeFirmware(admin, demo);
    tuneId = (await upload("/tune-files", dealer, demo.tune.image, { title: "Team map" })).json().id;
    await readyPayouts(app, dealer.uid);
    expect(
      (await call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: 9900, currency: "EUR" })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => test?.close());

  it("a dealer keeps repositories of their own: names unique per dealer, customers cannot make one, strangers cannot see one", async () => {
    const made = await call("POST", "/repositories", dealer, {
      name: "Track team",
      description: "Maps for the team's cars",
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      name: "Track team",
      freeForMembers: false,
      tuneCount: 0,
      members: [],
      dealerUid: dealer.uid,
    });
    const twice = await call("POST", "/repositories", dealer, { name: "Track team" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().data).toEqual([{ path: "name", message: "already used by another of your repositories" }]);
    // The same name is another dealer's own business.
    expect((await call("POST", "/repositories", otherDealer, { name: "Track team" })).statusCode).toBe(201);
    expect((await call("POST", "/repositories", member, { name: "Mine" })).statusCode).toBe(403);
    expect((await call("POST", "/repositories", dealer, { name: " " })).json().data[0].path).toBe("name");

    const id = made.json().id as string;
    expect((await call("GET", `/repositories/${id}`, outsider)).statusCode).toBe(404);
    expect((await call("GET", `/repositories/${id}`, otherDealer)).statusCode).toBe(404);
    expect((await call("PATCH", `/repositories/${id}`, otherDealer, { name: "Taken over" })).statusCode).toBe(404);
    expect(((await call("GET", "/repositories", dealer)).json().data as { name: string }[]).map((r) => r.name)).toEqual(
      ["Track team"],
    );
    expect(((await call("GET", `/repositories?dealerUid=${dealer.uid}`, admin)).json().data as unknown[]).length).toBe(
      1,
    );
  });

  it("a tune in a repository is offered to its members only: hidden from everyone else's lists, page, dealer catalogue and checkout", async () => {
    const repo = (await call("POST", "/repositories", dealer, { name: "Members only" })).json();
    const otherRepo = (await call("GET", "/repositories", otherDealer)).json().data[0];
    // Only the tune's dealer's own repositories take it.
    const foreign = await call("PATCH", `/tune-files/${tuneId}`, dealer, { repositoryId: otherRepo.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().data[0].path).toBe("repositoryId");
    const placed = await call("PATCH", `/tune-files/${tuneId}`, dealer, { repositoryId: repo.id });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().repositoryId).toBe(repo.id);

    const memberCar = await car(member);
    expect(await listed(member)).not.toContain(tuneId);
    expect(await catalogue(member)).not.toContain(tuneId);
    expect((await call("GET", `/tune-files/${tuneId}`, member)).statusCode).toBe(404);
    const refused = await call("POST", "/payments/tune-file-order", member, {
      tuneFileId: tuneId,
      vehicleId: memberCar,
    });
    expect(refused.statusCode).toBe(409);
    // The public directory does not count it either.
    expect((await call("GET", `/dealers/${dealerProfileId}`, outsider)).json().publishedTunes).toBe(0);

    // Access by the member's email: told once, a second grant changes nothing.
    const granted = await call("POST", `/repositories/${repo.id}/members`, dealer, {
      email: member.email.toUpperCase(),
    });
    expect(granted.statusCode, granted.body).toBe(201);
    expect(granted.json()).toEqual({ repositoryId: repo.id, userUid: member.uid, created: true });
    expect((await call("POST", `/users/${member.uid}/repository-access/${repo.id}`, dealer)).json().created).toBe(
      false,
    );
    expect(await notified(member.uid, "repository.granted")).toBe(1);
    const unknown = await call("POST", `/repositories/${repo.id}/members`, dealer, {
      email: "nobody-here@example.test",
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data[0]).toMatchObject({ path: "email" });
    // Another dealer cannot give access to someone else's repository, nor learn it exists.
    expect((await call("POST", `/users/${outsider.uid}/repository-access/${repo.id}`, otherDealer)).statusCode).toBe(
      404,
    );

    expect(await listed(member)).toContain(tuneId);
    expect(await catalogue(member)).toContain(tuneId);
    expect((await call("GET", `/tune-files/${tuneId}`, member)).statusCode).toBe(200);
    expect(await listed(outsider)).not.toContain(tuneId);
    const access = await call("GET", `/users/${member.uid}/repository-access`, member);
    expect(access.json()).toMatchObject({
      total: 1,
      data: [
        {
          repositoryId: repo.id,
          name: "Members only",
          dealerName: "Repo Tuning",
          freeForMembers: false,
          publishedTunes: 1,
        },
      ],
    });
    expect((await call("GET", `/users/${member.uid}/repository-access`, outsider)).statusCode).toBe(403);
    // A member sees the repository, not who else is in it; its dealer sees the members.
    expect((await call("GET", `/repositories/${repo.id}`, member)).json().members).toEqual([]);
    expect((await call("GET", `/repositories/${repo.id}`, dealer)).json().members).toMatchObject([
      { userUid: member.uid, email: member.email },
    ]);

    // Members pay the tune's price.
    const checkout = await call("POST", "/payments/tune-file-order", member, {
      tuneFileId: tuneId,
      vehicleId: memberCar,
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    expect(checkout.json().order).toMatchObject({ status: "created", amountCents: 9900 });
    expect(
      (await call("POST", "/payments/expire-session", member, { orderId: checkout.json().order.id })).statusCode,
    ).toBe(200);

    // At no charge when the dealer says so: the licence at once, no money moved.
    expect(
      (await call("PATCH", `/repositories/${repo.id}`, dealer, { freeForMembers: true })).json().freeForMembers,
    ).toBe(true);
    const free = await call("POST", "/payments/tune-file-order", member, { tuneFileId: tuneId, vehicleId: memberCar });
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json().order).toMatchObject({ status: "paid", amountCents: 0, feeCents: 0 });
    const licences = await app.ctx.db
      .select()
      .from(tuneFilePurchases)
      .where(and(eq(tuneFilePurchases.tuneFileId, tuneId), eq(tuneFilePurchases.vehicleId, memberCar)));
    expect(licences).toHaveLength(1);
    expect(
      (
        await app.ctx.db
          .select({ n: count() })
          .from(ledgerEntries)
          .where(eq(ledgerEntries.orderId, free.json().order.id))
      )[0].n,
    ).toBe(0);

    // Withdrawn: the member is told; the licence they hold stays, the rest is no longer offered.
    expect((await call("DELETE", `/users/${member.uid}/repository-access/${repo.id}`, dealer)).statusCode).toBe(204);
    expect(await notified(member.uid, "repository.withdrawn")).toBe(1);
    expect((await call("DELETE", `/users/${member.uid}/repository-access/${repo.id}`, dealer)).statusCode).toBe(404);
    expect((await call("GET", `/users/${member.uid}/repository-access`, member)).json().total).toBe(0);
    expect((await call("GET", `/tune-files/${tuneId}`, member)).statusCode).toBe(200);
    const secondCar = await car(member);
    expect(
      (await call("POST", "/payments/tune-file-order", member, { tuneFileId: tuneId, vehicleId: secondCar }))
        .statusCode,
    ).toBe(409);

    // A member may leave by themself.
    await call("POST", `/users/${outsider.uid}/repository-access/${repo.id}`, admin);
    expect(await listed(outsider)).toContain(tuneId);
    expect((await call("DELETE", `/users/${outsider.uid}/repository-access/${repo.id}`, outsider)).statusCode).toBe(
      204,
    );
    expect(await notified(outsider.uid, "repository.withdrawn")).toBe(0);
    expect(await listed(outsider)).not.toContain(tuneId);
  });

  it("a repository holding tunes is not deleted (that would put them on open sale); emptied, it is", async () => {
    const repo = (await call("POST", "/repositories", dealer, { name: "To remove" })).json();
    await call("PATCH", `/tune-files/${tuneId}`, dealer, { repositoryId: repo.id });
    const refused = await call("DELETE", `/repositories/${repo.id}`, dealer);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().description).toContain("Team map");
    expect((await call("GET", `/tune-files/${tuneId}`, dealer)).json().repositoryId).toBe(repo.id);
    expect((await call("DELETE", `/repositories/${repo.id}`, otherDealer)).statusCode).toBe(404);

    expect(
      (await call("PATCH", `/tune-files/${tuneId}`, dealer, { repositoryId: null })).json().repositoryId,
    ).toBeNull();
    expect((await call("DELETE", `/repositories/${repo.id}`, dealer)).statusCode).toBe(204);
    expect((await call("GET", `/repositories/${repo.id}`, dealer)).statusCode).toBe(404);
    // Out of every repository, the tune is on open sale again.
    expect(await listed(outsider)).toContain(tuneId);
  });
});
