import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CreatedDataLogShare,
  type DataLogDetail,
  type DataLogSummary,
  DEFAULT_DYNO_PROFILE,
  type ResolvedDataLogShare,
} from "../../contracts/data-logs";
import { deserializeColumns, parseLog, readColumnsLayout } from "../../domain/logs";
import { BYTES_PER_CODE, decodeColumn } from "../../domain/logs/column-codes";
import { arrayCodes } from "../../domain/logs/serialize";
import { computedDescriptors, dataLogShares, dataLogs, userVehicles } from "../../server/db/schema";
import {
  bearer,
  bothDatabases,
  createUser,
  createUsers,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./support/harness";
import { multipart } from "./support/multipart";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = path.resolve(repoRoot, "../shared/fixtures/logs");
const fixtureNames = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".csv"))
  .sort();
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const SMALL_LIMIT = 4096;

/** A valid generic CSV of exactly `size` bytes: rows up to the size, the last cell padded with leading zeros. */
function csvOfSize(size: number): Buffer {
  let text = "Time,RPM\n";
  let i = 0;
  while (text.length + 16 < size) text += `${(i++ / 10).toFixed(1)},${1000 + i}\n`;
  const last = `${(i / 10).toFixed(1)},`;
  const digits = size - text.length - last.length - 1;
  text += `${last}${"0".repeat(Math.max(0, digits - 4))}${"1234".slice(0, Math.min(4, digits))}\n`;
  return Buffer.from(text);
}

const profile = DEFAULT_DYNO_PROFILE;

describe.each(bothDatabases)("data logs API on %s", (kind) => {
  let test: TestApp;
  let small: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  const uploaded = new Map<string, DataLogDetail>();

  const upload = (
    app: TestApp,
    user: TestUser,
    name: string,
    content: Uint8Array,
    fields: Record<string, string> = {},
  ) => {
    const body = multipart([{ name: "file", filename: name, content }], fields);
    return app.app.inject({
      method: "POST",
      url: "/api/v1/data-logs",
      payload: body.payload,
      headers: { ...body.headers, ...bearer(user.token) },
    });
  };
  const get = (url: string, user?: TestUser, headers: Record<string, string> = {}) =>
    test.app.inject({ method: "GET", url: `/api/v1${url}`, headers: { ...(user && bearer(user.token)), ...headers } });
  const blobDir = (app: TestApp) => path.join(app.app.ctx.config.dataDir, "data-logs", "blobs");
  const blobFiles = (app: TestApp) =>
    existsSync(blobDir(app))
      ? readdirSync(blobDir(app), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [];
  const tempFiles = (app: TestApp) => {
    const dir = path.join(app.app.ctx.config.dataDir, "tmp");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    [test, small] = await Promise.all([
      startTestApp(kind),
      startTestApp(kind, { LOG_UPLOAD_LIMIT_BYTES: String(SMALL_LIMIT) }),
    ]);
    [owner, other, admin] = await createUsers(test, ["customer", "customer", "admin"]);
    const responses = await Promise.all(fixtureNames.map((name) => upload(test, owner, name, fixture(name))));
    responses.forEach((response, i) => {
      expect(response.statusCode, `${fixtureNames[i]}: ${response.body}`).toBe(201);
      uploaded.set(fixtureNames[i], response.json());
    });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
    await small?.close();
  });

  describe("upload", () => {
    it("parses every fixture as the parser does, keeping the channels' names, units and row counts", () => {
      for (const name of fixtureNames) {
        const expected = parseLog(fixture(name));
        const log = uploaded.get(name)!;
        expect(log.format, name).toBe(expected.format);
        expect(log.rowCount, name).toBe(expected.rowCount);
        expect(
          log.channels.map((c) => [c.name, c.unit]),
          name,
        ).toEqual(expected.channels.map((c) => [c.name, c.unit]));
        expect(log.title, name).toBe(name.replace(/\.csv$/, ""));
        expect(Object.keys(log).sort()).toEqual(
          [
            "id",
            "title",
            "format",
            "rowCount",
            "durationSeconds",
            "startedAt",
            "vehicleId",
            "meta",
            "channels",
            "fileName",
            "fileSize",
            "tags",
            "notes",
            "warnings",
            "dynoProfile",
            "createdAt",
            "updatedAt",
          ].sort(),
        );
      }
    });

    it("says what each channel measures, by the logger's words, and null where nothing a tuner opens a log for", () => {
      const roles = (name: string) =>
        Object.fromEntries(uploaded.get(name)!.channels.map((channel) => [channel.name, channel.role]));
      // RomRaider with PLX gauges: a bar MAP sensor is boost as absolute pressure, the wideband in lambda.
      expect(roles("romraider-semicolon-decimal-comma.csv")).toEqual({
        "Timing Advance": { role: "timing", family: "angle" },
        "PLX Engine Speed": { role: "engineSpeed", family: "rotation" },
        "PLX Manifold Absolute Pressure": { role: "boost", family: "pressure", pressure: "absolute" },
        "PLX O2 - Wideband": { role: "mixture", family: "mixture", mixture: "lambda" },
      });
      // ME7Logger's names: a correction per cylinder, the boost target in mbar absolute, a PID term with no role.
      const me7 = roles("ecuxplot-me7l.csv");
      expect(me7.IgnitionRetardCyl5).toEqual({ role: "knockCorrection", family: "angle", cylinder: 5 });
      expect(me7.BoostPressureDesired).toEqual({ role: "boostTarget", family: "pressure", pressure: "absolute" });
      expect(me7.SelectedGear).toEqual({ role: "gear", family: "count" });
      expect(me7["BoostPID-I-Result"]).toBeNull();
    });

    it("takes the real files of the other loggers, a binary MegaLogViewer log included, as the parser reads them", async () => {
      const more = path.resolve(repoRoot, "../shared/fixtures/more-logs");
      for (const name of readdirSync(more).sort()) {
        const content = readFileSync(path.join(more, name));
        const response = await upload(test, owner, name, content);
        expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
        const expected = parseLog(content);
        expect(response.json()).toMatchObject({ format: expected.format, rowCount: expected.rowCount, fileName: name });
        expect(
          (response.json() as DataLogDetail).channels.map((c) => c.name),
          name,
        ).toEqual(expected.channels.map((c) => c.name));
      }
    });

    it("keeps the original byte for byte and serves the columnar form", async () => {
      const name = "romraider-semicolon-decimal-comma.csv";
      const log = uploaded.get(name)!;
      const blob = await get(`/data-logs/${log.id}/blob`, owner);
      expect(blob.statusCode).toBe(200);
      expect(blob.rawPayload.equals(fixture(name))).toBe(true);
      const columns = await get(`/data-logs/${log.id}/columns`, owner);
      expect(columns.headers["content-type"]).toBe("application/octet-stream");
      const parsed = deserializeColumns(new Uint8Array(columns.rawPayload), inflateRawSync);
      expect(parsed.rowCount).toBe(log.rowCount);
      // Coded compactly, but every sample comes back as the parser read it, gaps included.
      const expected = parseLog(fixture(name));
      parsed.columns.forEach((column, i) => {
        expect(Array.from(column).map(String)).toEqual(Array.from(expected.columns[i]).map(String));
      });
      expect(columns.rawPayload.length).toBeLessThan(expected.rowCount * (8 + 4 * expected.columns.length));
    });

    it("serves each channel of the columnar form deflated on its own, so one byte range is one channel", async () => {
      const name = "romraider-semicolon-decimal-comma.csv";
      const log = uploaded.get(name)!;
      const head = await get(`/data-logs/${log.id}/columns`, owner, { range: "bytes=0-65535" });
      expect(head.statusCode).toBe(206);
      const layout = readColumnsLayout(new Uint8Array(head.rawPayload));
      if ("headerBytes" in layout) throw new Error("the header did not fit in 64 KiB");
      expect(layout.columns.every((place) => place.deflated)).toBe(true);
      const expected = parseLog(fixture(name));
      const index = expected.channels.length - 1;
      const place = layout.columns[index];
      const part = await get(`/data-logs/${log.id}/columns`, owner, {
        range: `bytes=${place.at}-${place.at + place.bytes - 1}`,
      });
      expect(part.statusCode).toBe(206);
      const codes = arrayCodes(place.encoding, inflateRawSync(part.rawPayload), layout.rows);
      const values = decodeColumn({ codes, encoding: place.encoding }, Float32Array);
      expect(Array.from(values).map(String)).toEqual(Array.from(expected.columns[index]).map(String));
      // What a phone downloads to chart the log: well under the codes as they are.
      const coded = layout.columns.reduce((sum, column) => sum + layout.rows * BYTES_PER_CODE[column.encoding.type], 0);
      expect(layout.columns.reduce((sum, column) => sum + column.bytes, 0)).toBeLessThan(coded / 2);
    });

    it("answers byte ranges of the original", async () => {
      const name = "haltech-nsp.csv";
      const bytes = fixture(name);
      const { id } = uploaded.get(name)!;
      const first = await get(`/data-logs/${id}/blob`, owner, { range: "bytes=0-9" });
      expect(first.statusCode).toBe(206);
      expect(first.headers["content-range"]).toBe(`bytes 0-9/${bytes.length}`);
      expect(first.rawPayload.equals(bytes.subarray(0, 10))).toBe(true);
      const tail = await get(`/data-logs/${id}/blob`, owner, { range: "bytes=-5" });
      expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 5))).toBe(true);
      const open = await get(`/data-logs/${id}/blob`, owner, { range: `bytes=${bytes.length - 3}-` });
      expect(open.rawPayload.equals(bytes.subarray(bytes.length - 3))).toBe(true);
      const past = await get(`/data-logs/${id}/blob`, owner, { range: `bytes=${bytes.length}-` });
      expect(past.statusCode).toBe(416);
      expect(past.headers["content-range"]).toBe(`bytes */${bytes.length}`);
    });

    it("takes a title and the owner's vehicle", async () => {
      const [vehicle] = await test.app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: owner.uid, name: "Golf R" })
        .returning();
      const response = await upload(test, owner, "x.csv", fixture("ecuxplot-jb4.csv"), {
        title: "Third gear pull",
        vehicleId: vehicle.id,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ title: "Third gear pull", vehicleId: vehicle.id, format: "jb4" });
      const foreign = await upload(test, other, "x.csv", fixture("ecuxplot-jb4.csv"), { vehicleId: vehicle.id });
      expect(foreign.statusCode).toBe(404);
      const unknownField = await upload(test, owner, "x.csv", fixture("ecuxplot-jb4.csv"), { ownerUid: other.uid });
      expect(unknownField.statusCode).toBe(400);
      expect(unknownField.json().data).toEqual([{ path: "ownerUid", message: 'Unknown field "ownerUid"' }]);
    });

    it.each([
      ["an empty file", Buffer.alloc(0), "empty"],
      ["binary junk", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), "binary"],
      [
        "ragged rows",
        Buffer.from(
          `Time,RPM,Boost\n${Array.from({ length: 40 }, (_, i) => (i % 2 ? `${i},2000` : `${i},2000,5`)).join("\n")}\n`,
        ),
        "ragged",
      ],
    ])("refuses %s with 422 naming the reason, storing nothing", async (_label, content, code) => {
      const before = (await test.app.ctx.db.select().from(dataLogs)).length;
      const blobsBefore = blobFiles(test).length;
      const response = await upload(test, owner, "bad.csv", content);
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body.message).toBe("The log could not be read");
      expect(body.description).toEqual(expect.any(String));
      expect(body.data.code).toBe(code);
      if (code === "ragged") expect(body.description).toMatch(/line/);
      expect((await test.app.ctx.db.select().from(dataLogs)).length).toBe(before);
      expect(blobFiles(test).length).toBe(blobsBefore);
      expect(tempFiles(test)).toEqual([]);
    });

    it("accepts a file of exactly the limit and refuses one byte more with 413, leaving nothing on disk", async () => {
      const user = await createUser(small, "customer");
      const exact = csvOfSize(SMALL_LIMIT);
      expect(exact.length).toBe(SMALL_LIMIT);
      const accepted = await upload(small, user, "exact.csv", exact);
      expect(accepted.statusCode, accepted.body).toBe(201);
      const filesAfterAccepted = blobFiles(small);
      const over = Buffer.concat([exact, Buffer.from("9")]);
      const refused = await upload(small, user, "over.csv", over);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toMatchObject({ statusCode: 413, data: { limitBytes: SMALL_LIMIT } });
      expect(blobFiles(small)).toEqual(filesAfterAccepted);
      expect(tempFiles(small)).toEqual([]);
      expect(await small.app.ctx.db.select().from(dataLogs)).toHaveLength(1);
    });
  });

  describe("reading", () => {
    it("hides a log from other users behind 404, and shows it to admins", async () => {
      const { id } = uploaded.get("ecuxplot-obdlink.csv")!;
      expect((await get(`/data-logs/${id}`, other)).statusCode).toBe(404);
      expect((await get(`/data-logs/${id}/blob`, other)).statusCode).toBe(404);
      expect((await get(`/data-logs/${id}/columns`, other)).statusCode).toBe(404);
      expect((await get(`/data-logs/${id}`, admin)).json().id).toBe(id);
      expect((await get(`/data-logs/${id}`)).statusCode).toBe(401);
      expect((await get(`/data-logs/not-a-uuid`, owner)).statusCode).toBe(400);
    });

    it("lists with server paging, filters and search", async () => {
      const page1 = (await get("/data-logs?pageSize=5&sort=title", owner)).json() as {
        data: DataLogSummary[];
        total: number;
      };
      const page2 = (await get("/data-logs?pageSize=5&page=2&sort=title", owner)).json() as {
        data: DataLogSummary[];
        total: number;
      };
      expect(page1.data).toHaveLength(5);
      expect(page1.total).toBeGreaterThanOrEqual(fixtureNames.length);
      const titles = [...page1.data, ...page2.data].map((log) => log.title);
      expect(titles).toEqual([...titles].sort());
      expect(new Set(titles).size).toBe(10);

      const haltech = (await get("/data-logs?format[eq]=haltech-nsp", owner)).json();
      expect(haltech.data.map((log: DataLogSummary) => log.title)).toEqual(["haltech-nsp"]);
      const search = (await get("/data-logs?q=ME7L", owner)).json();
      expect(search.data.map((log: DataLogSummary) => log.title).sort()).toEqual([
        "ecuxplot-me7l",
        "ecuxplot-me7l-semicolons",
      ]);
      const future = new Date(Date.now() + 86_400_000).toISOString();
      const inRange = (
        await get(`/data-logs?createdAt[between]=2000-01-01T00:00:00Z,${future}&pageSize=1`, owner)
      ).json();
      expect(inRange.total).toBe(page1.total);
      const none = (await get(`/data-logs?createdAt[gte]=${future}`, owner)).json();
      expect(none).toMatchObject({ data: [], total: 0 });

      expect((await get("/data-logs", other)).json()).toMatchObject({ data: [], total: 0 });
      expect((await get("/data-logs?pageSize=1", admin)).json().total).toBe(page1.total);
      expect((await get("/data-logs?colour[eq]=red", owner)).statusCode).toBe(400);
    });
  });

  describe("computed descriptors", () => {
    it("lets any signed-in user read the catalogue's computed descriptors, and nobody but admins change them", async () => {
      await test.app.ctx.db
        .insert(computedDescriptors)
        .values({
          name: "Boost (log test)",
          variable: "boost_log_test",
          unit: "psi",
          expression: "(map - amb_press) * 0.145",
          variables: ["map", "amb_press"],
          decimals: 1,
        })
        .onConflictDoNothing();
      const list = await get("/data-logs/computed-descriptors", owner);
      expect(list.statusCode).toBe(200);
      const boost = (list.json().data as Array<Record<string, unknown>>).find((d) => d.name === "Boost (log test)");
      expect(boost).toEqual({
        id: expect.any(String),
        name: "Boost (log test)",
        unit: "psi",
        expression: "(map - amb_press) * 0.145",
        decimals: 1,
        variables: ["map", "amb_press"],
      });
      expect((await get("/data-logs/computed-descriptors")).statusCode).toBe(401);

      const before = await test.app.ctx.db.select().from(computedDescriptors);
      const write = (method: "POST" | "PUT", url: string) =>
        test.app.inject({
          method,
          url: `/api/v1${url}`,
          payload: { name: "Mine", variable: "mine", expression: "map * 2" },
          headers: bearer(owner.token),
        });
      expect((await write("PUT", "/firmware-support/computed-descriptor")).statusCode).toBe(403);
      expect((await write("POST", "/data-logs/computed-descriptors")).statusCode).toBe(404);
      expect(await test.app.ctx.db.select().from(computedDescriptors)).toEqual(before);
    });
  });

  describe("changing", () => {
    const patch = (id: string, user: TestUser, payload: unknown) =>
      test.app.inject({
        method: "PATCH",
        url: `/api/v1/data-logs/${id}`,
        payload: payload as object,
        headers: bearer(user.token),
      });

    it("changes title, notes and tags", async () => {
      const { id } = uploaded.get("ecuxplot-vcds.csv")!;
      const response = await patch(id, owner, {
        title: "VCDS pull",
        notes: "4th gear",
        tags: ["pull", "stage 1", "pull"],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ title: "VCDS pull", notes: "4th gear", tags: ["pull", "stage 1"] });
    });

    it("refuses unknown fields and leaves the row as it was", async () => {
      const { id } = uploaded.get("ecuxplot-zeitronix.csv")!;
      const [before] = await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, id));
      const response = await patch(id, owner, { title: "renamed", ownerUid: other.uid, rowCount: 1 });
      expect(response.statusCode).toBe(400);
      expect(response.json().data).toEqual([
        { path: "ownerUid", message: 'Unknown field "ownerUid"' },
        { path: "rowCount", message: 'Unknown field "rowCount"' },
      ]);
      const [after] = await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, id));
      expect(after).toEqual(before);
      expect((await patch(id, other, { title: "mine now" })).statusCode).toBe(404);
    });

    it("keeps the dyno profile with the vehicle when the log has one, else with the log", async () => {
      const { id } = uploaded.get("ecuxplot-evoscan.csv")!;
      const onLog = await patch(id, owner, { dynoProfile: profile });
      expect(onLog.json().dynoProfile).toEqual(profile);
      const [vehicle] = await test.app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: owner.uid, name: "Evo" })
        .returning();
      const heavier = { ...profile, massKg: 1700 };
      const onVehicle = await patch(id, owner, { vehicleId: vehicle.id, dynoProfile: heavier });
      expect(onVehicle.json()).toMatchObject({ vehicleId: vehicle.id, dynoProfile: heavier });
      const [stored] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicle.id));
      expect(stored.dynoProfile).toEqual(heavier);
      const [foreignVehicle] = await test.app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: other.uid, name: "Not yours" })
        .returning();
      expect((await patch(id, owner, { vehicleId: foreignVehicle.id })).statusCode).toBe(404);
      expect((await patch(id, owner, { dynoProfile: { ...profile, massKg: -1 } })).statusCode).toBe(400);
    });
  });

  describe("sharing", () => {
    const share = (id: string, user: TestUser, payload: object) =>
      test.app.inject({ method: "POST", url: `/api/v1/data-logs/${id}/share`, payload, headers: bearer(user.token) });
    const resolve = (token: string) => test.app.inject({ method: "POST", url: `/api/v1/data-logs/shared/${token}` });

    it("makes an unguessable link that shows only the chosen channels, signed out", async () => {
      const log = uploaded.get("ecuxplot-me7l.csv")!;
      const chosen = log.channels.slice(0, 2).map((c) => c.id);
      const response = await share(log.id, owner, { channels: chosen });
      expect(response.statusCode).toBe(201);
      const created = response.json() as CreatedDataLogShare;
      expect(Buffer.from(created.token, "base64url")).toHaveLength(32);
      const [row] = await test.app.ctx.db.select().from(dataLogShares).where(eq(dataLogShares.id, created.id));
      expect(row.tokenHash).not.toContain(created.token);

      const resolved = await resolve(created.token);
      expect(resolved.statusCode).toBe(200);
      const body = resolved.json() as ResolvedDataLogShare;
      expect(body.log.channels.map((c) => c.id)).toEqual(chosen);
      expect(body.log.channels.map((c) => c.role)).toEqual(log.channels.slice(0, 2).map((c) => c.role));
      expect(body.log).not.toHaveProperty("notes");
      const columns = await get(`/data-logs/shared/${created.token}/columns`);
      const parsed = deserializeColumns(new Uint8Array(columns.rawPayload), inflateRawSync);
      expect(parsed.channels.map((c) => c.id)).toEqual(chosen);
      expect(parsed.rowCount).toBe(log.rowCount);

      expect((await share(log.id, other, { channels: [] })).statusCode).toBe(404);
      expect((await share(log.id, owner, { channels: ["no-such-channel"] })).statusCode).toBe(400);
      expect((await resolve("A".repeat(43))).statusCode).toBe(404);
    });

    it("lists shares, and a revoked or expired link answers 404", async () => {
      const { id } = uploaded.get("ecuxplot-volvologger.csv")!;
      const first = (await share(id, owner, { channels: [] })).json() as CreatedDataLogShare;
      const second = (
        await share(id, owner, { channels: [], expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      ).json() as CreatedDataLogShare;
      const list = (await get(`/data-logs/${id}/shares`, owner)).json();
      expect(list.data.map((s: { id: string }) => s.id)).toEqual([first.id, second.id]);
      expect(list.data[0]).not.toHaveProperty("token");
      expect((await get(`/data-logs/${id}/shares`, other)).statusCode).toBe(404);

      const revoke = await test.app.inject({
        method: "DELETE",
        url: `/api/v1/data-logs/${id}/shares/${first.id}`,
        headers: bearer(owner.token),
      });
      expect(revoke.statusCode).toBe(204);
      expect((await resolve(first.token)).statusCode).toBe(404);
      expect((await get(`/data-logs/shared/${first.token}/columns`)).statusCode).toBe(404);

      expect((await resolve(second.token)).statusCode).toBe(200);
      await test.app.ctx.db
        .update(dataLogShares)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(dataLogShares.id, second.id));
      expect((await resolve(second.token)).statusCode).toBe(404);
      expect(
        (await share(id, owner, { channels: [], expiresAt: new Date(Date.now() - 1000).toISOString() })).statusCode,
      ).toBe(400);
    });

    it("lists a vehicle's shared logs for its owner", async () => {
      const [vehicle] = await test.app.ctx.db
        .insert(userVehicles)
        .values({ ownerUid: owner.uid, name: "M3" })
        .returning();
      const { id } = uploaded.get("ecuxplot-simostools.csv")!;
      await test.app.inject({
        method: "PATCH",
        url: `/api/v1/data-logs/${id}`,
        payload: { vehicleId: vehicle.id },
        headers: bearer(owner.token),
      });
      const created = (await share(id, owner, { channels: [] })).json() as CreatedDataLogShare;
      const shared = (await get(`/user-vehicles/${vehicle.id}/shared`, owner)).json();
      expect(shared.data).toEqual([expect.objectContaining({ shareId: created.id, logId: id })]);
      expect((await get(`/user-vehicles/${vehicle.id}/shared`, other)).statusCode).toBe(404);
    });
  });

  describe("deleting", () => {
    it("removes the row, its shares and both files", async () => {
      const response = await upload(test, other, "delete-me.csv", fixture("ecuxplot-winlog.csv"));
      const log = response.json() as DataLogDetail;
      const [row] = await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, log.id));
      const created = (
        await test.app.inject({
          method: "POST",
          url: `/api/v1/data-logs/${log.id}/share`,
          payload: {},
          headers: bearer(other.token),
        })
      ).json();
      // The owner's copy of the same bytes keeps the shared blobs alive; other's delete must not take them.
      const files = blobFiles(test);
      expect(files).toContain(row.fileSha256);
      expect(
        (await test.app.inject({ method: "DELETE", url: `/api/v1/data-logs/${log.id}`, headers: bearer(owner.token) }))
          .statusCode,
      ).toBe(404);
      const deleted = await test.app.inject({
        method: "DELETE",
        url: `/api/v1/data-logs/${log.id}`,
        headers: bearer(other.token),
      });
      expect(deleted.statusCode).toBe(204);
      expect(await test.app.ctx.db.select().from(dataLogs).where(eq(dataLogs.id, log.id))).toEqual([]);
      expect(await test.app.ctx.db.select().from(dataLogShares).where(eq(dataLogShares.id, created.id))).toEqual([]);
      expect(blobFiles(test)).toContain(row.fileSha256);

      const ownersCopy = uploaded.get("ecuxplot-winlog.csv")!;
      expect(
        (
          await test.app.inject({
            method: "DELETE",
            url: `/api/v1/data-logs/${ownersCopy.id}`,
            headers: bearer(owner.token),
          })
        ).statusCode,
      ).toBe(204);
      expect(blobFiles(test)).not.toContain(row.fileSha256);
      expect(blobFiles(test)).not.toContain(row.columnsSha256);
      expect((await get(`/data-logs/${ownersCopy.id}`, owner)).statusCode).toBe(404);
    });
  });
});
