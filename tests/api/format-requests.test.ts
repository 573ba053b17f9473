import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FormatRequest, MAX_OPEN_FORMAT_REQUESTS } from "../../contracts/format-requests";
import type { NotificationPage } from "../../contracts/notifications";
import { auditEvents, dataLogs, formatRequests } from "../../server/db/schema";
import { bearer, bothDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { multipart } from "./support/multipart";
import { requestsTo } from "./support/requests";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NEW_FORMATS = path.resolve(repoRoot, "../shared/fixtures/new-formats");
/** AEM's binary .daq: the parser refuses it as a format it does not read (data-log-companions.test.ts). */
const AEM = new Uint8Array(readFileSync(path.join(NEW_FORMATS, "aem.daq")));
/** A little above the sample, so the limit and the limit plus one byte can both be sent. */
const LIMIT = AEM.length + 16;
const consent = { tool: "AEM Infinity (AEMdata)", note: "from my track day", consent: "true" };

describe.each(bothDatabases)("format requests on %s", (kind) => {
  let test: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let stranger: TestUser;
  const { call } = requestsTo(() => test.app);

  const send = (url: string, user: TestUser, content: Uint8Array, fields: Record<string, string>) => {
    const body = multipart([{ name: "file", filename: "aem.daq", content }], fields);
    return test.app.inject({
      method: "POST",
      url: `/api/v1${url}`,
      headers: { ...bearer(user.token), ...body.headers },
      payload: body.payload,
    });
  };
  const ask = (user: TestUser, content = AEM, fields: Record<string, string> = consent) =>
    send("/format-requests", user, content, fields);
  const kept = (sha256: string) => test.app.ctx.dataLogBlobs.exists(sha256);
  const rowsOf = (uid: string) => test.app.ctx.db.select().from(formatRequests).where(eq(formatRequests.ownerUid, uid));
  const closeAll = async (uid: string) => {
    for (const row of await rowsOf(uid))
      if (row.state === "open") await call("POST", `/format-requests/${row.id}/close`, admin, { state: "declined" });
  };

  beforeAll(async () => {
    test = await startTestApp(kind, { LOG_UPLOAD_LIMIT_BYTES: String(LIMIT) });
    [admin, owner, stranger] = await createUsers(test, ["admin", "customer", "customer"]);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  it("stores nothing when a data-log upload is refused for its format", async () => {
    const refused = await send("/data-logs", owner, AEM, {});
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().data.code).toBe("unsupported");
    expect(await test.app.ctx.db.select().from(dataLogs)).toEqual([]);
    expect(await rowsOf(owner.uid)).toEqual([]);
    expect(await test.app.ctx.dataLogBlobs.list()).toEqual([]);
  });

  it("refuses a request without consent, naming the consent field, and keeps nothing", async () => {
    const { consent: _given, ...withoutConsent } = consent;
    const response = await ask(owner, AEM, withoutConsent);
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.stringify(response.json().data)).toMatch(/consent/);
    const refusedWord = await ask(owner, AEM, { ...consent, consent: "yes" });
    expect(refusedWord.statusCode, refusedWord.body).toBe(400);
    expect(await rowsOf(owner.uid)).toEqual([]);
    expect(await test.app.ctx.dataLogBlobs.list()).toEqual([]);
  });

  it("refuses a request that names no logger or tool", async () => {
    const response = await ask(owner, AEM, { ...consent, tool: "  " });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().data).toEqual([{ path: "tool", message: "name the logger or tool that wrote the file" }]);
    expect(await rowsOf(owner.uid)).toEqual([]);
  });

  it("keeps the refused file with consent, with the tool, the note and the parser's own refusal", async () => {
    const response = await ask(owner);
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as FormatRequest;
    expect(created).toMatchObject({
      ownerUid: owner.uid,
      state: "open",
      tool: consent.tool,
      note: consent.note,
      fileName: "aem.daq",
      fileSize: AEM.length,
      fileKept: true,
      refusalCode: "unsupported",
    });
    expect(created.refusalMessage).toMatch(/^An AEM \.daq log: .*Export it as CSV from AEMdata/);
    const [row] = await rowsOf(owner.uid);
    expect(row.fileSha256 && (await kept(row.fileSha256))).toBe(true);
    const audited = await test.app.ctx.db.select().from(auditEvents).where(eq(auditEvents.targetId, created.id));
    expect(audited.map((event) => event.action)).toEqual(["format-request.created"]);
    await closeAll(owner.uid);
  });

  it("refuses a file the portal reads, saying to upload it as a data log", async () => {
    const csv = new TextEncoder().encode("Time,RPM\n0,800\n0.1,820\n0.2,850\n");
    const response = await ask(stranger, csv);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().description).toBe("The portal reads this file: upload it as a data log instead");
    expect(await rowsOf(stranger.uid)).toEqual([]);
  });

  it("takes a file of exactly the log upload limit and refuses one byte more with 413", async () => {
    const exact = new Uint8Array(LIMIT);
    exact.set(AEM);
    const atLimit = await ask(stranger, exact);
    expect(atLimit.statusCode, atLimit.body).toBe(201);
    const over = await ask(stranger, new Uint8Array(LIMIT + 1).fill(0));
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json().description).toContain(String(LIMIT));
    expect(await rowsOf(stranger.uid)).toHaveLength(1);
    await closeAll(stranger.uid);
  });

  it(`refuses more than ${MAX_OPEN_FORMAT_REQUESTS} open requests per user, naming the limit, even sent at once`, async () => {
    const answers = await Promise.all(Array.from({ length: MAX_OPEN_FORMAT_REQUESTS + 2 }, () => ask(stranger)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(MAX_OPEN_FORMAT_REQUESTS).fill(201), ...Array(2).fill(409)]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.json().description).toContain(`${MAX_OPEN_FORMAT_REQUESTS} open format requests`);
    expect((await rowsOf(stranger.uid)).filter((row) => row.state === "open")).toHaveLength(MAX_OPEN_FORMAT_REQUESTS);
    await closeAll(stranger.uid);
  });

  it("lists every request to admins and only their own to anyone else; the file only to admins", async () => {
    const mine = (await ask(owner)).json() as FormatRequest;
    const theirs = (await ask(stranger)).json() as FormatRequest;
    const adminList = await call("GET", `/format-requests?state[eq]=open`, admin);
    expect(adminList.statusCode, adminList.body).toBe(200);
    expect(
      adminList
        .json()
        .data.map((r: FormatRequest) => r.id)
        .sort(),
    ).toEqual([mine.id, theirs.id].sort());
    expect(adminList.json().data.find((r: FormatRequest) => r.id === mine.id).ownerEmail).toBe(owner.email);
    const ownList = await call("GET", `/format-requests?state[eq]=open`, owner);
    expect(ownList.json().data.map((r: FormatRequest) => r.id)).toEqual([mine.id]);

    const download = await call("GET", `/format-requests/${theirs.id}/file`, admin);
    expect(download.statusCode).toBe(200);
    expect(new Uint8Array(download.rawPayload)).toEqual(AEM);
    expect(download.headers["content-disposition"]).toBe('attachment; filename="aem.daq"');
    expect((await call("GET", `/format-requests/${theirs.id}/file`, owner)).statusCode).toBe(403);
    expect((await call("GET", `/format-requests/${mine.id}/file`, owner)).statusCode).toBe(403);
    const closeByOwner = await call("POST", `/format-requests/${mine.id}/close`, owner, { state: "supported" });
    expect(closeByOwner.statusCode).toBe(403);
    expect((await rowsOf(owner.uid)).find((row) => row.id === mine.id)?.state).toBe("open");
    await closeAll(owner.uid);
    await closeAll(stranger.uid);
  });

  it("marking a request supported notifies the uploader with the upload offered again and deletes the file", async () => {
    const asked = (await ask(owner)).json() as FormatRequest;
    const [row] = (await rowsOf(owner.uid)).filter((r) => r.id === asked.id);
    const sha256 = row.fileSha256 as string;
    expect(await kept(sha256)).toBe(true);
    const closed = await call("POST", `/format-requests/${asked.id}/close`, admin, {
      state: "supported",
      note: "AEM .daq logs are read now",
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      state: "supported",
      fileKept: false,
      closingNote: "AEM .daq logs are read now",
    });
    expect(await kept(sha256)).toBe(false);
    expect((await call("GET", `/format-requests/${asked.id}/file`, admin)).statusCode).toBe(404);
    const again = await call("POST", `/format-requests/${asked.id}/close`, admin, { state: "declined" });
    expect(again.statusCode).toBe(409);

    const inbox = await call("GET", `/users/${owner.uid}/notifications`, owner);
    const notice = (inbox.json() as NotificationPage).data.find((n) => n.kind === "format-request.supported");
    expect(notice).toMatchObject({
      title: `Your ${consent.tool} logs can be uploaded now`,
      link: "/tuning-tools/data-logs",
    });
    expect(notice?.body).toContain("AEM .daq logs are read now");
  });
});
