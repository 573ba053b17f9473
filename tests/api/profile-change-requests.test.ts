/**
 * Profile change requests: a dealer asks to change their business identity with documents, an
 * admin approves (the profile changes, in the same transaction) or rejects with a note, and the
 * dealer is told. On both databases; the concurrent-submission case matters on PostgreSQL, where
 * PUTs really run at once.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENT_MAX_BYTES, LOGO_MAX_BYTES } from "../../contracts/profile-change-requests";
import {
  auditEvents,
  dealerProfiles,
  notifications,
  profileChangeFiles,
  profileChangeRequests,
} from "../../server/db/schema";
import { collectBlobs } from "../../server/services/blob-collector";
import {
  apiDatabases,
  bearer,
  createUser,
  createUsers,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./support/harness";
import { type FilePart, multipart } from "./support/multipart";
import { requestsTo } from "./support/requests";

/** A minimal PDF: what matters to the server is its first bytes. */
const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const document = (text = "company register extract", filename = "extract.pdf"): FilePart => ({
  name: "documents",
  filename,
  content: pdf(text),
});

describe.each(apiDatabases)("profile change requests on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let dealerProfileId: string;
  let logoPng: Buffer;

  const put = (user: TestUser, uid: string, files: FilePart[], fields: Record<string, string> = {}) => {
    const body = multipart(files, fields);
    return app.inject({
      method: "PUT",
      url: `/api/v1/users/${uid}/profile-change-request`,
      headers: { ...bearer(user.token), ...body.headers },
      payload: body.payload,
    });
  };
  const download = (user: TestUser, uid: string, fileId: string) =>
    app.inject({
      method: "GET",
      url: `/api/v1/users/${uid}/profile-change-request/files/${fileId}`,
      headers: bearer(user.token),
    });
  const decide = (user: TestUser, uid: string, body: Record<string, unknown>) =>
    call("POST", `/users/${uid}/profile-change-request/approve`, user, body);
  const profileOf = async (uid: string) =>
    (await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, uid)))[0];
  const auditOf = (requestId: string) =>
    app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, "profile-change-request"), eq(auditEvents.targetId, requestId)));
  const requestsOf = (uid: string) =>
    app.ctx.db.select().from(profileChangeRequests).where(eq(profileChangeRequests.userUid, uid));

  /** An approved dealer with a profile; answers the profile's id. */
  const approvedDealer = async (user: TestUser, businessName: string) => {
    const applied = await call("POST", "/dealers", user, {
      businessName,
      address: "1 Dyno Lane, Bristol BS1 1AA",
      registrationNumber: "01234567",
      phone: "+44 117 496 0000",
    });
    expect(applied.statusCode, applied.body).toBe(201);
    await app.ctx.db.update(dealerProfiles).set({ status: "approved" }).where(eq(dealerProfiles.id, applied.json().id));
    return applied.json().id as string;
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, customer] = await createUsers(test, [
      "admin",
      ["dealer", "Dana Dealer"],
      "dealer",
      "customer",
    ]);
    dealerProfileId = await approvedDealer(dealer, "Demo Boost Ltd");
    await approvedDealer(otherDealer, "Other Tuning Ltd");
    logoPng = await sharp({ create: { width: 600, height: 300, channels: 3, background: "#c0392b" } })
      .png()
      .toBuffer();
  });
  afterAll(async () => test?.close());

  it("takes a dealer's request with documents and a logo, and shows it to the dealer and admins without changing the profile", async () => {
    const sent = await put(dealer, dealer.uid, [document(), { name: "logo", filename: "logo.png", content: logoPng }], {
      businessName: "Demo Boost Holdings Ltd",
      vatNumber: "GB123456789",
      address: "1 Dyno Lane, Bristol BS1 1AA",
      comment: "We changed our name",
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const status = sent.json();
    // The address sent is the current one: only what differs is requested.
    expect(status.open).toMatchObject({
      state: "open",
      dealerId: dealerProfileId,
      changes: { businessName: "Demo Boost Holdings Ltd", vatNumber: "GB123456789" },
      comment: "We changed our name",
    });
    expect(status.open.changes).not.toHaveProperty("address");
    expect(status.open.documents).toEqual([
      expect.objectContaining({ kind: "document", name: "extract.pdf", contentType: "application/pdf" }),
    ]);
    // The logo is stored re-encoded: WebP, within 256 px.
    expect(status.open.logo).toMatchObject({ kind: "logo", contentType: "image/webp" });
    expect(status.identity).toMatchObject({ businessName: "Demo Boost Ltd", vatNumber: null, logoSha256: null });

    for (const reader of [dealer, admin]) {
      const read = await call("GET", `/users/${dealer.uid}/profile-change-request`, reader);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().open.id).toBe(status.open.id);
    }
    expect((await profileOf(dealer.uid)).businessName).toBe("Demo Boost Ltd");
    const logo = await download(dealer, dealer.uid, status.open.logo.id);
    const meta = await sharp(logo.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 128]);
  });

  it("refuses bad input naming the field, and stores nothing", async () => {
    const applicant = await createUser(test, "dealer");
    await approvedDealer(applicant, "Careful Tuning Ltd");
    const refusals: Array<[string, Awaited<ReturnType<typeof put>>, number, string]> = [
      ["no documents", await put(applicant, applicant.uid, [], { businessName: "New Name Ltd" }), 400, "documents"],
      [
        "a document that is not a PDF or an image",
        await put(
          applicant,
          applicant.uid,
          [{ name: "documents", filename: "extract.pdf", content: Buffer.from("MZ\u0090\u0000 not a pdf") }],
          { businessName: "New Name Ltd" },
        ),
        415,
        "documents",
      ],
      [
        "a document over the limit",
        await put(
          applicant,
          applicant.uid,
          [
            {
              name: "documents",
              filename: "big.pdf",
              content: Buffer.concat([pdf("big"), Buffer.alloc(DOCUMENT_MAX_BYTES + 1 - pdf("big").length)]),
            },
          ],
          { businessName: "New Name Ltd" },
        ),
        413,
        "documents",
      ],
      [
        "a logo over its limit",
        await put(applicant, applicant.uid, [
          document(),
          {
            name: "logo",
            filename: "logo.png",
            content: Buffer.concat([logoPng, Buffer.alloc(LOGO_MAX_BYTES + 1 - logoPng.length)]),
          },
        ]),
        413,
        "logo",
      ],
      [
        "an SVG logo",
        await put(applicant, applicant.uid, [
          document(),
          {
            name: "logo",
            filename: "logo.svg",
            content: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
            ),
          },
        ]),
        415,
        "logo",
      ],
      [
        "an empty legal name",
        await put(applicant, applicant.uid, [document()], { businessName: "  " }),
        400,
        "businessName",
      ],
      [
        "an unknown field",
        await put(applicant, applicant.uid, [document()], { businessName: "New Name Ltd", status: "approved" }),
        400,
        "status",
      ],
      [
        "a file in an unknown field",
        await put(applicant, applicant.uid, [document(), { name: "file", filename: "x.pdf", content: pdf("x") }], {
          businessName: "New Name Ltd",
        }),
        400,
        "file",
      ],
      [
        "nothing that changes",
        await put(applicant, applicant.uid, [document()], { businessName: "Careful Tuning Ltd" }),
        400,
        "businessName",
      ],
    ];
    for (const [what, answer, status, field] of refusals) {
      expect(answer.statusCode, `${what}: ${answer.body}`).toBe(status);
      const body = answer.json();
      const named =
        status === 413 ? [body.data.field] : (body.data as Array<{ path: string }>).map((issue) => issue.path);
      expect(named, what).toContain(field);
    }
    expect(await requestsOf(applicant.uid)).toEqual([]);
    // A document exactly at the limit is taken.
    const atLimit = await put(
      applicant,
      applicant.uid,
      [
        {
          name: "documents",
          filename: "limit.pdf",
          content: Buffer.concat([pdf("limit"), Buffer.alloc(DOCUMENT_MAX_BYTES - pdf("limit").length)]),
        },
      ],
      { businessName: "New Name Ltd" },
    );
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(atLimit.json().open.documents[0].size).toBe(DOCUMENT_MAX_BYTES);
  });

  it("lets no customer ask, and no one but the dealer and admins read the request or its documents", async () => {
    expect((await put(customer, customer.uid, [document()], { businessName: "Sneaky Ltd" })).statusCode).toBe(403);
    expect((await put(customer, dealer.uid, [document()], { businessName: "Sneaky Ltd" })).statusCode).toBe(403);
    expect((await put(admin, dealer.uid, [document()], { businessName: "Sneaky Ltd" })).statusCode).toBe(403);
    expect((await call("GET", `/users/${dealer.uid}/profile-change-request`, customer)).statusCode).toBe(403);
    expect((await call("GET", `/users/${dealer.uid}/profile-change-request`, otherDealer)).statusCode).toBe(403);
    expect((await call("GET", `/users/${customer.uid}/profile-change-request`, customer)).statusCode).toBe(404);
    const { open } = (await call("GET", `/users/${dealer.uid}/profile-change-request`, dealer)).json();
    const documentId = open.documents[0].id as string;
    expect((await download(otherDealer, dealer.uid, documentId)).statusCode).toBe(403);
    expect((await download(customer, dealer.uid, documentId)).statusCode).toBe(403);
    // Another user's path does not reach it, even for an admin.
    expect((await download(admin, otherDealer.uid, documentId)).statusCode).toBe(404);
    for (const reader of [dealer, admin]) {
      const file = await download(reader, dealer.uid, documentId);
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("application/pdf");
      expect(file.headers["content-disposition"]).toContain('filename="extract.pdf"');
      expect(file.headers["content-security-policy"]).toContain("sandbox");
      expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    }
    // The review queue is the admins'.
    expect((await call("GET", "/profile-change-requests?state[eq]=open", dealer)).statusCode).toBe(403);
    const queue = await call("GET", "/profile-change-requests?state[eq]=open", admin);
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.json().data).toContainEqual(
      expect.objectContaining({
        id: open.id,
        email: dealer.email,
        identity: expect.objectContaining({ businessName: "Demo Boost Ltd" }),
      }),
    );
  });

  it("keeps the business identity out of the admin's profile corrections: it changes by a request", async () => {
    const refused = await call("PATCH", `/dealers/${dealerProfileId}/admin`, admin, {
      businessName: "Quietly Renamed Ltd",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data).toEqual([
      expect.objectContaining({ path: "businessName", message: expect.stringContaining("profile change request") }),
    ]);
    expect((await profileOf(dealer.uid)).businessName).toBe("Demo Boost Ltd");
  });

  it("approves: the profile takes the requested values and logo, the dealer is told, the logo is public", async () => {
    const { open } = (await call("GET", `/users/${dealer.uid}/profile-change-request`, dealer)).json();
    expect((await decide(dealer, dealer.uid, { decision: "approve" })).statusCode).toBe(403);
    expect(
      (await decide(admin, dealer.uid, { decision: "approve", submittedAt: "2020-01-01T00:00:00.000Z" })).statusCode,
    ).toBe(409);
    const approved = await decide(admin, dealer.uid, {
      decision: "approve",
      note: "Register extract checked",
      submittedAt: open.submittedAt,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      open: null,
      lastDecided: { id: open.id, state: "approved", decidedBy: admin.uid, decisionNote: "Register extract checked" },
    });
    const profile = await profileOf(dealer.uid);
    expect(profile).toMatchObject({
      businessName: "Demo Boost Holdings Ltd",
      vatNumber: "GB123456789",
      address: "1 Dyno Lane, Bristol BS1 1AA",
      registrationNumber: "01234567",
    });
    const [logoFile] = await app.ctx.db
      .select()
      .from(profileChangeFiles)
      .where(and(eq(profileChangeFiles.requestId, open.id), eq(profileChangeFiles.kind, "logo")));
    expect(profile.logoSha256).toBe(logoFile.sha256);
    const [told] = await app.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, dealer.uid), eq(notifications.kind, "profile-change.approved")));
    expect(told.title).toContain("Demo Boost Holdings Ltd");
    expect(told.body).toContain("Register extract checked");
    // The directory shows the new name and the logo, which anyone may fetch.
    const listed = (await call("GET", `/dealers/${dealerProfileId}`, null)).json();
    expect(listed).toMatchObject({ businessName: "Demo Boost Holdings Ltd", logoSha256: profile.logoSha256 });
    const logo = await app.inject({
      method: "GET",
      url: `/api/v1/dealers/${dealerProfileId}/logo?v=${profile.logoSha256}`,
    });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/webp");
    // One audit row, written with the change: who, the identity before and after.
    const [audit] = await auditOf(open.id);
    expect(audit).toMatchObject({
      action: "profile-change-request.approved",
      actorUid: admin.uid,
      actorRole: "admin",
      subjectUid: dealer.uid,
      requestId: expect.any(String),
    });
    expect(audit.before).toMatchObject({
      identity: { businessName: "Demo Boost Ltd", vatNumber: null },
      requested: { changes: { businessName: "Demo Boost Holdings Ltd" } },
    });
    expect(audit.after).toMatchObject({
      identity: { businessName: "Demo Boost Holdings Ltd", vatNumber: "GB123456789", logoSha256: profile.logoSha256 },
      note: "Register extract checked",
    });
    // The refused attempts above (a dealer, a stale review) wrote nothing.
    expect(await auditOf(open.id)).toHaveLength(1);
    // Nothing is open any more: a second decision has nothing to decide.
    expect((await decide(admin, dealer.uid, { decision: "approve" })).statusCode).toBe(404);
  });

  it("rejects only with a note, leaving the profile as it was", async () => {
    expect(
      (await put(dealer, dealer.uid, [document("vat certificate", "vat.pdf")], { vatNumber: "" })).statusCode,
    ).toBe(200);
    const before = await profileOf(dealer.uid);
    const noNote = await decide(admin, dealer.uid, { decision: "reject" });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().data).toEqual([expect.objectContaining({ path: "note" })]);
    expect((await requestsOf(dealer.uid)).filter((row) => row.state === "open")).toHaveLength(1);
    const rejected = await decide(admin, dealer.uid, {
      decision: "reject",
      note: "The certificate is for another company",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await auditOf(rejected.json().lastDecided.id)).toEqual([
      expect.objectContaining({
        action: "profile-change-request.rejected",
        actorUid: admin.uid,
        subjectUid: dealer.uid,
        after: expect.objectContaining({ state: "rejected", note: "The certificate is for another company" }),
      }),
    ]);
    expect(await profileOf(dealer.uid)).toEqual(before);
    const status = (await call("GET", `/users/${dealer.uid}/profile-change-request`, dealer)).json();
    expect(status).toMatchObject({
      open: null,
      lastDecided: {
        state: "rejected",
        changes: { vatNumber: null },
        decisionNote: "The certificate is for another company",
      },
    });
    const [told] = await app.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, dealer.uid), eq(notifications.kind, "profile-change.rejected")));
    expect(told.body).toContain("The certificate is for another company");
  });

  it("keeps the files of requests and the approved logo through blob collection", async () => {
    const files = await app.ctx.db.select().from(profileChangeFiles);
    const { logoSha256 } = await profileOf(dealer.uid);
    expect(files.length).toBeGreaterThan(0);
    expect(logoSha256).not.toBeNull();
    // No grace period: only what a record holds survives.
    await collectBlobs(app.ctx, { graceMs: 0 });
    for (const sha256 of [...files.map((file) => file.sha256), logoSha256!])
      expect(await app.ctx.blobs.exists(sha256), sha256).toBe(true);
  });

  it("keeps one open request under concurrent submissions, holding the documents of one of them", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        put(otherDealer, otherDealer.uid, [document(`extract ${i}`, `extract-${i}.pdf`)], {
          businessName: `Renamed ${i} Ltd`,
        }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const open = (await requestsOf(otherDealer.uid)).filter((row) => row.state === "open");
    expect(open).toHaveLength(1);
    const files = await app.ctx.db
      .select()
      .from(profileChangeFiles)
      .where(eq(profileChangeFiles.requestId, open[0].id));
    expect(files).toHaveLength(1);
    // The documents are those of the submission whose name was kept.
    const kept = /^Renamed (\d) Ltd$/.exec(open[0].changes.businessName ?? "")?.[1];
    expect(files[0].name).toBe(`extract-${kept}.pdf`);
  });
});
