/**
 * The bad inputs an outside probe answered with 500: each is a 400 naming the
 * failing field, and nothing is stored. A NUL character in text, numbers an integer column
 * cannot hold, dates outside PostgreSQL's calendar, a non-UUID for a UUID column, malformed
 * multipart bodies on the streamed upload path, and an XML document nested 20,000 deep.
 * tests/api/support/list-fuzz.ts walks every list with many more values.
 */
import { pbkdf2 } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataLogShares, dataLogs, supportRequests, tuneFilePatches, tuneFiles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 4, firmwareId: "BAD64K" });
const CSV = "Time,RPM\n0.0,1000\n0.1,1100\n0.2,1200\n";

type Answer = {
  statusCode: number;
  body: string;
  json(): { message?: string; description?: string; data?: Array<{ path: string; message: string }> };
};

/** A 400 whose data names `field` first. */
function expectRefused(response: Answer, field: string, message?: RegExp) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.data?.[0]?.path, response.body).toBe(field);
  if (message) expect(body.data?.[0]?.message, response.body).toMatch(message);
}

describe.each(apiDatabases)("bad inputs on %s", (kind) => {
  let test: TestApp;
  const { call, upload, storeFirmware } = requestsTo(() => test.app);
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let logId: string;
  let tuneId: string;

  const rows = async (table: PgTable) => (await test.app.ctx.db.select({ n: count() }).from(table))[0].n;
  const filesIn = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [];
  const temps = () => filesIn(path.join(test.app.ctx.config.dataDir, "tmp"));
  const logBlobs = () => filesIn(path.join(test.app.ctx.config.dataDir, "data-logs"));

  beforeAll(async () => {
    test = await startTestApp(kind);
    [admin, dealer, customer] = await createUsers(test, ["admin", "dealer", "customer"]);
    await storeFirmware(admin, demo);
    const log = await upload("/data-logs", customer, Buffer.from(CSV), { title: "Pull" }, "pull.csv");
    expect(log.statusCode, log.body).toBe(201);
    logId = log.json().id;
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" });
    expect(tune.statusCode, tune.body).toBe(201);
    tuneId = tune.json().id;
  });
  afterAll(async () => test?.close());

  describe("a NUL character in text", () => {
    it.each([
      ["/data-logs?q=a%00b", "q"],
      ["/data-logs?format[eq]=%00", "format[eq]"],
      ["/data-logs?tags[in]=a,%00", "tags[in]"],
      ["/tune-files?q=a%00b", "q"],
      ["/tune-files?firmwareId[startswith]=%00", "firmwareId[startswith]"],
      ["/tune-file-patches?title[contains]=a%00", "title[contains]"],
      ["/user-vehicles/support-request/mine?status[eq]=%00", "status[eq]"],
    ])("GET %s answers 400 naming %s", async (url, field) => {
      expectRefused(await call("GET", url, customer), field, /NUL/);
    });

    it.each([
      ["/firmware-support?manufacturer[eq]=Bo%00sch", "manufacturer[eq]"],
      ["/firmware-support/password-storage?q=%00", "q"],
      ["/contact-requests?email[eq]=%00", "email[eq]"],
    ])("GET %s (admin) answers 400 naming %s", async (url, field) => {
      expectRefused(await call("GET", url, admin), field, /NUL/);
    });

    it("in a JSON body, anywhere in it, is refused naming the field, and the row is unchanged", async () => {
      const [before] = await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, logId));
      expectRefused(await call("PATCH", `/data-logs/${logId}`, customer, { title: "a\u0000b" }), "title", /NUL/);
      expectRefused(await call("PATCH", `/data-logs/${logId}`, customer, { tags: ["ok", "b\u0000"] }), "tags.1", /NUL/);
      const [after] = await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, logId));
      expect(after).toEqual(before);
    });

    it("in a body a route checks by hand (a support request sent as JSON) is refused too, storing nothing", async () => {
      const before = await rows(supportRequests);
      const body = {
        vin: "WVWZZZ1KZAW000001",
        make: "Volks\u0000wagen",
        model: "Golf",
        year: 2010,
        ecuIds: ["1K0907115"],
      };
      expectRefused(await call("POST", "/user-vehicles/support-request", customer, body), "make", /NUL/);
      expect(await rows(supportRequests)).toBe(before);
    });

    it("in a field of a streamed upload is refused before the log is read, storing nothing", async () => {
      const [before, blobs] = [await rows(dataLogs), logBlobs()];
      expectRefused(
        await upload("/data-logs", customer, Buffer.from(CSV), { title: "a\u0000b" }, "nul.csv"),
        "title",
        /NUL/,
      );
      expect(await rows(dataLogs)).toBe(before);
      expect(logBlobs()).toEqual(blobs);
      expect(temps()).toEqual([]);
    });
  });

  describe("numbers an integer column cannot hold", () => {
    it.each(["1.5", "2147483648", "1e308", "-2147483649", "0x10"])(
      "GET /firmware-support?imageSize[gt]=%s answers 400 naming imageSize[gt]",
      async (value) => {
        expectRefused(
          await call("GET", `/firmware-support?imageSize[gt]=${value}`, admin),
          "imageSize[gt]",
          /whole number from -2147483648 to 2147483647/,
        );
      },
    );

    it("takes the integers an integer column holds", async () => {
      expect((await call("GET", "/firmware-support?imageSize[gt]=2147483647", admin)).statusCode).toBe(200);
      expect((await call("GET", "/firmware-support?imageSize[between]=-2147483648,1e3", admin)).statusCode).toBe(200);
    });

    it("PATCH /tune-files/{id} with currentVersion 2147483648 answers 400 naming it, and the tune is unchanged", async () => {
      const [before] = await test.app.ctx.db.select().from(tuneFiles).where(eq(tuneFiles.id, tuneId));
      expectRefused(
        await call("PATCH", `/tune-files/${tuneId}`, dealer, { currentVersion: 2147483648 }),
        "currentVersion",
        /at most 2147483647/,
      );
      expectRefused(
        await call("PATCH", `/tune-files/${tuneId}`, dealer, { currentVersion: 1.5 }),
        "currentVersion",
        /whole number/,
      );
      const [after] = await test.app.ctx.db.select().from(tuneFiles).where(eq(tuneFiles.id, tuneId));
      expect(after).toEqual(before);
    });

    it.each(["download", "inspection", "stock-differences", "maps"])(
      "GET /tune-files/{id}/%s?version=99999999999 answers 400 naming version",
      async (view) => {
        expectRefused(
          await call("GET", `/tune-files/${tuneId}/${view}?version=99999999999`, dealer),
          "version",
          /at most 2147483647/,
        );
      },
    );
  });

  describe("dates outside PostgreSQL's calendar", () => {
    it.each([
      ["/data-logs", "createdAt", "customer"],
      ["/tune-files", "updatedAt", "customer"],
      ["/firmware-support", "updatedAt", "admin"],
      ["/demo-requests", "createdAt", "admin"],
    ] as const)(
      "GET %s?%s[gt]=… answers 400 naming the parameter for year 0 and year -200000",
      async (list, field, who) => {
        const user = () => (who === "customer" ? customer : admin);
        for (const value of ["0000-01-01T00:00:00Z", "-200000-01-01T00:00:00Z", "2021-02-30", "10000-01-01"]) {
          expectRefused(
            await call("GET", `${list}?${field}[gt]=${encodeURIComponent(value)}`, user()),
            `${field}[gt]`,
            /date/,
          );
        }
        expect(
          (await call("GET", `${list}?${field}[between]=0001-01-01,9999-12-31T23:59:59Z`, user())).statusCode,
        ).toBe(200);
      },
    );

    it("a share link expiring in year 0 is refused naming expiresAt, storing nothing", async () => {
      const before = await rows(dataLogShares);
      expectRefused(
        await call("POST", `/data-logs/${logId}/share`, customer, { expiresAt: "0000-01-01T00:00:00Z" }),
        "expiresAt",
        /0001 to 9999/,
      );
      expect(await rows(dataLogShares)).toBe(before);
    });
  });

  it("GET /data-logs?vehicleId[eq]=not-a-uuid answers 400 naming vehicleId[eq]", async () => {
    expectRefused(await call("GET", "/data-logs?vehicleId[eq]=not-a-uuid", customer), "vehicleId[eq]", /UUID/);
    expectRefused(
      await call("GET", "/data-logs?vehicleId[contains]=00000000-0000-0000-0000-000000000000", customer),
      "vehicleId[contains]",
      /does not apply/,
    );
    expect(
      (await call("GET", "/data-logs?vehicleId[eq]=00000000-0000-0000-0000-000000000000", customer)).json().total,
    ).toBe(0);
  });

  describe("malformed multipart on the streamed upload path", () => {
    const boundary = "----bad-input-boundary";
    const part = (b: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="log.csv"\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n`;
    const whole = (b: string) => `${part(b)}--${b}--\r\n`;
    const long = "b".repeat(200);
    it.each([
      ["no boundary", "multipart/form-data", whole(boundary), /names no boundary/],
      [
        "a wrong boundary",
        "multipart/form-data; boundary=other",
        whole(boundary),
        /no complete part with the boundary/,
      ],
      [
        "no closing boundary",
        `multipart/form-data; boundary=${boundary}`,
        part(boundary),
        /ends before its closing boundary/,
      ],
      ["a truncated body", `multipart/form-data; boundary=${boundary}`, whole(boundary).slice(0, 100), /boundary/],
      [
        "a file part without a name",
        `multipart/form-data; boundary=${boundary}`,
        whole(boundary).replace(' name="file";', ""),
        /Content-Disposition has no name/,
      ],
      [
        "a 200-character boundary",
        `multipart/form-data; boundary=${long}`,
        whole(long),
        /200 characters; RFC 2046 allows at most 70/,
      ],
    ])("%s answers 400 saying what is wrong, storing nothing", async (_, contentType, payload, description) => {
      const [before, blobs] = [await rows(dataLogs), logBlobs()];
      const response = await test.app.inject({
        method: "POST",
        url: "/api/v1/data-logs",
        headers: { ...bearer(customer.token), "content-type": contentType },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        message: "Invalid multipart body",
        description: expect.stringMatching(description),
      });
      expect(await rows(dataLogs)).toBe(before);
      expect(logBlobs()).toEqual(blobs);
      expect(temps()).toEqual([]);
    });
  });

  it("leaves no temp file behind when many uploads end early while the file system is busy", async () => {
    // Busy worker threads delay the temp files' opening past the moment the refused upload
    // cleans up, as a loaded server does: the clean-up must still find every file.
    const busy = Array.from(
      { length: 8 },
      () => new Promise((resolve) => pbkdf2("x", "y", 40_000, 32, "sha256", resolve)),
    );
    const boundary = "----bad-input-boundary";
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="log.csv"\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        test.app.inject({
          method: "POST",
          url: "/api/v1/data-logs",
          headers: { ...bearer(customer.token), "content-type": `multipart/form-data; boundary=${boundary}` },
          payload: cut,
        }),
      ),
    );
    await Promise.all(busy);
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 400));
    expect(temps()).toEqual([]);
  });

  it("an XDF nested 20,000 deep answers 400 naming the nesting limit, storing nothing", async () => {
    const before = await rows(tuneFilePatches);
    const xml = `<XDFFORMAT>${"<a>".repeat(20_000)}${"</a>".repeat(20_000)}</XDFFORMAT>`;
    for (const dryRun of [true, false]) {
      const response = await call("POST", "/tune-file-patches/import-xdf", admin, {
        xml,
        firmwareId: demo.firmware.firmwareId,
        dryRun,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().description).toContain("nested more than 256 deep");
    }
    expect(await rows(tuneFilePatches)).toBe(before);
    // The server still answers.
    expect((await call("GET", "/health", null)).statusCode).toBe(200);
  });
});
