import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { dataLogs, tuneFiles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { collectBlobs } from "../../server/services/blob-collector";
import { checkBlobStores, openBlobStores } from "../../server/services/blob-stores";
import { tempDirOf } from "../../server/services/temp-files";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { startTestObjectStorage, type TestObjectStorage } from "./support/object-storage";
import { requestsTo } from "./support/requests";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LOG_NAME = "romraider-semicolon-decimal-comma.csv";
const fixture = (name: string) => readFileSync(path.resolve(repoRoot, "../shared/fixtures/logs", name));
const log = fixture(LOG_NAME);
const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "S3DEMO64K" });
const HOUR = 3600_000;
const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const keyOf = (prefix: string, sha256: string) => `${prefix}${sha256.slice(0, 2)}/${sha256}`;

describe.each(apiDatabases)("files in S3-compatible storage on %s", (kind) => {
  let storage: TestObjectStorage;
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let dealer: TestUser;
  let owner: TestUser;
  let recordId: string;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  const get = (url: string, user: TestUser, range?: string) =>
    app.inject({
      method: "GET",
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${user.token}`, ...(range && { range }) },
    });
  const uploadLog = (content: Uint8Array, filename = LOG_NAME) => upload("/data-logs", owner, content, {}, filename);
  const rowCount = async (table: typeof tuneFiles | typeof dataLogs) => (await app.ctx.db.select().from(table)).length;

  beforeAll(async () => {
    storage = await startTestObjectStorage();
    test = await startTestApp(kind, storage.env);
    app = test.app;
    [admin, dealer, owner] = await createUsers(test, ["admin", "dealer", "customer"]);
    recordId = await storeFirmware(admin, demo);
  });
  afterAll(async () => {
    await test?.close();
    await storage?.close();
  });

  it("keeps an uploaded tune file in the bucket, not on disk, and answers it byte for byte", async () => {
    const created = await upload("/tune-files", dealer, demo.tune.image, { title: "In the bucket" });
    expect(created.statusCode, created.body).toBe(201);
    const sha256 = sha256Of(demo.tune.image);
    expect(await storage.keys("blobs/")).toEqual(
      expect.arrayContaining([keyOf("blobs/", sha256), keyOf("blobs/", sha256Of(demo.stock))]),
    );
    expect((await storage.object(keyOf("blobs/", sha256))).equals(Buffer.from(demo.tune.image))).toBe(true);
    expect(existsSync(path.join(app.ctx.config.dataDir, "blobs"))).toBe(false);
    const download = await get(`/tune-files/${created.json().id}/download`, dealer);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(Buffer.from(demo.tune.image))).toBe(true);
    const status = await call("GET", "/status", admin);
    expect(status.json().components.find((c: { name: string }) => c.name === "storage")).toMatchObject({
      ok: true,
      detail: expect.stringContaining(`bucket ${storage.bucket}`),
    });
  });

  it("range-reads a data log's original and columns from the bucket: 206 with the bytes asked for, 416 past the end", async () => {
    const created = await uploadLog(log);
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, created.json().id));
    const columns = await storage.object(keyOf("data-logs/blobs/", row.columnsSha256));
    expect(columns.length).toBe(row.columnsSize);
    const whole = await get(`/data-logs/${row.id}/blob`, owner);
    expect(whole.rawPayload.equals(log)).toBe(true);
    const part = await get(`/data-logs/${row.id}/columns`, owner, "bytes=100-1123");
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-1123/${columns.length}`);
    expect(part.rawPayload.equals(columns.subarray(100, 1124))).toBe(true);
    const tail = await get(`/data-logs/${row.id}/columns`, owner, "bytes=-10");
    expect(tail.rawPayload.equals(columns.subarray(columns.length - 10))).toBe(true);
    const past = await get(`/data-logs/${row.id}/columns`, owner, `bytes=${columns.length}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${columns.length}`);
  });

  it("removes a deleted data log's objects from the bucket", async () => {
    const created = await uploadLog(fixture("ecuxplot-me7l.csv"), "ecuxplot-me7l.csv");
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, created.json().id));
    const keys = [keyOf("data-logs/blobs/", row.fileSha256), keyOf("data-logs/blobs/", row.columnsSha256)];
    expect(await storage.keys("data-logs/")).toEqual(expect.arrayContaining(keys));
    expect((await call("DELETE", `/data-logs/${row.id}`, owner)).statusCode).toBe(204);
    const left = await storage.keys("data-logs/");
    for (const key of keys) expect(left, key).not.toContain(key);
  });

  it("leaves nothing in the bucket when an upload is refused", async () => {
    const before = await storage.keys();
    const notALog = await uploadLog(Buffer.from("this is not a log of any logger\n"), "notes.csv");
    expect(notALog.statusCode, notALog.body).toBe(422);
    const broken = Uint8Array.from(demo.tune.image);
    broken[demo.firmware.definition.items[0].z.address] ^= 1;
    const failing = await upload("/tune-files", dealer, broken, { title: "Failing checksums" });
    expect(failing.statusCode, failing.body).toBe(422);
    expect(await storage.keys()).toEqual(before);
    expect(await storage.uploads()).toEqual([]);
  });

  it("streams a large file to the bucket in parts and reads it back whole", async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 17);
    const sha256 = sha256Of(bytes);
    const temp = path.join(tempDirOf(app.ctx.config.dataDir), "large-upload");
    await mkdir(path.dirname(temp), { recursive: true });
    await writeFile(temp, bytes);
    await app.ctx.blobs.adopt(temp, sha256);
    expect(existsSync(temp)).toBe(false);
    expect((await storage.object(keyOf("blobs/", sha256))).equals(bytes)).toBe(true);
    expect((await app.ctx.blobs.read(sha256)).equals(bytes)).toBe(true);
    await app.ctx.blobs.removeNow(sha256);
    expect(await storage.keys("blobs/")).not.toContain(keyOf("blobs/", sha256));
  });

  it("collects an object no row holds and aborts a stale multipart upload, once past the grace period", async () => {
    const orphan = randomBytes(512);
    const orphanKey = keyOf("blobs/", sha256Of(orphan));
    // Written past the portal, as another instance (or a crash after the upload) would leave it.
    await storage.client.send(new PutObjectCommand({ Bucket: storage.bucket, Key: orphanKey, Body: orphan }));
    const logOrphan = keyOf("data-logs/blobs/", sha256Of(randomBytes(64)));
    await storage.client.send(new PutObjectCommand({ Bucket: storage.bucket, Key: logOrphan, Body: randomBytes(64) }));
    const cut = keyOf("data-logs/blobs/", sha256Of(randomBytes(64)));
    const started = await storage.client.send(new CreateMultipartUploadCommand({ Bucket: storage.bucket, Key: cut }));
    await storage.client.send(
      new UploadPartCommand({
        Bucket: storage.bucket,
        Key: cut,
        UploadId: started.UploadId,
        PartNumber: 1,
        Body: randomBytes(1024),
      }),
    );
    const held = keyOf("blobs/", sha256Of(demo.stock));

    const now = await collectBlobs(app.ctx);
    expect(now.removedLeftovers).toBe(0);
    expect(await storage.keys()).toEqual(expect.arrayContaining([orphanKey, logOrphan]));
    expect(await storage.uploads()).toEqual([cut]);

    const later = await collectBlobs(app.ctx, { now: () => Date.now() + 2 * HOUR });
    expect(later.removedLeftovers).toBe(1);
    expect(await storage.uploads()).toEqual([]);
    const left = await storage.keys();
    expect(left).not.toContain(orphanKey);
    expect(left).not.toContain(logOrphan);
    expect(left).toContain(held);
    expect((await get(`/firmware-support/stock-file/${recordId}`, admin)).statusCode).toBe(200);
  });

  it("answers 503 with Retry-After and writes no row while the storage is down, and works again once it is back", async () => {
    const [tunesBefore, logsBefore] = [await rowCount(tuneFiles), await rowCount(dataLogs)];
    await storage.stop();
    try {
      const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Storage down" });
      expect(tune.statusCode, tune.body).toBe(503);
      expect(tune.headers["retry-after"]).toBe("5");
      expect(tune.json()).toEqual({
        statusCode: 503,
        message: "Storage unavailable",
        description: expect.stringMatching(/cannot be reached/),
      });
      const logUpload = await uploadLog(Buffer.concat([log, Buffer.from("\n\n")]));
      expect(logUpload.statusCode, logUpload.body).toBe(503);
      expect(logUpload.headers["retry-after"]).toBe("5");
      expect([await rowCount(tuneFiles), await rowCount(dataLogs)]).toEqual([tunesBefore, logsBefore]);
      const [{ id }] = await app.ctx.db.select({ id: dataLogs.id }).from(dataLogs).limit(1);
      const columns = await get(`/data-logs/${id}/columns`, owner, "bytes=0-99");
      expect(columns.statusCode, columns.body).toBe(503);
      expect(columns.headers["content-range"]).toBeUndefined();
    } finally {
      await storage.restart();
    }
    const again = await upload("/tune-files", dealer, demo.tune.image, { title: "Storage back" });
    expect(again.statusCode, again.body).toBe(201);
  });

  it("refuses to start when the bucket cannot be reached or does not exist, saying which", async () => {
    const config = (env: Record<string, string>) =>
      loadConfig({ NODE_ENV: "test", DATA_DIR: app.ctx.config.dataDir, ...storage.env, ...env });
    const missing = openBlobStores(config({ S3_BUCKET: "no-such-bucket" }));
    await expect(checkBlobStores(missing)).rejects.toThrow(/Refusing to start.*no-such-bucket.*does not exist/);
    missing.close();
    const silent = openBlobStores(config({ S3_ENDPOINT: "http://127.0.0.1:9" }));
    await expect(checkBlobStores(silent)).rejects.toThrow(/Refusing to start.*127\.0\.0\.1:9/);
    silent.close();
  });
});
