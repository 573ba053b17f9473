import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DataLogDetail } from "../../contracts/data-logs";
import { dataLogs } from "../../server/db/schema";
import { bearer, createUser, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { type FilePart, multipart } from "./support/multipart";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NEW_FORMATS = path.resolve(repoRoot, "../shared/fixtures/new-formats");
const sample = (name: string) => new Uint8Array(readFileSync(path.join(NEW_FORMATS, name)));
const LG1 = "emerald-idle-and-rev.lg1";
const LG2 = "emerald-idle-and-rev.lg2";

/** Logs that need a second file: Emerald's .lg1 samples come with the .lg2 that names their channels. */
describe("data-log upload with a companion file", () => {
  let test: TestApp;
  let owner: TestUser;

  const upload = (files: FilePart[]) => {
    const body = multipart(files);
    return test.app.inject({
      method: "POST",
      url: "/api/v1/data-logs",
      payload: body.payload,
      headers: { ...body.headers, ...bearer(owner.token) },
    });
  };
  const rows = async () => (await test.app.ctx.db.select().from(dataLogs)).length;
  const tempFiles = () => {
    const dir = path.join(test.app.ctx.config.dataDir, "tmp");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    test = await startTestApp("pglite");
    owner = await createUser(test, "customer");
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  it("reads an Emerald .lg1 sent with its .lg2 as a companion, naming channels from the .lg2", async () => {
    const response = await upload([
      { name: "file", filename: LG1, content: sample(LG1) },
      { name: "companion", filename: LG2, content: sample(LG2) },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const log = response.json<DataLogDetail>();
    expect(log.format).toBe("emerald");
    expect(log.fileName).toBe(LG1);
    expect(log.rowCount).toBe(2515);
    expect(log.channels.map((c) => c.name)).toContain("RPM");
    expect(log.channels).toHaveLength(8);
    expect(tempFiles()).toEqual([]);
  });

  it("refuses an .lg1 sent alone with 422 asking for its .lg2, storing nothing", async () => {
    const before = await rows();
    const response = await upload([{ name: "file", filename: LG1, content: sample(LG1) }]);
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.data.code).toBe("needs-companion");
    expect(body.description).toMatch(/upload it together with its \.lg2 channel list/);
    expect(await rows()).toBe(before);
    expect(tempFiles()).toEqual([]);
  });

  it("refuses a file in a field other than file or companion with 400 naming the field", async () => {
    const response = await upload([
      { name: "file", filename: LG1, content: sample(LG1) },
      { name: "extra", filename: LG2, content: sample(LG2) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().data).toEqual([{ path: "extra", message: 'expected "file" or "companion"' }]);
    expect(tempFiles()).toEqual([]);
  });

  it("refuses a companion without the log, and more files than a log and one companion", async () => {
    const alone = await upload([{ name: "companion", filename: LG2, content: sample(LG2) }]);
    expect(alone.statusCode).toBe(400);
    expect(alone.json().description).toBe('Attach the log as the "file" field');
    const three = await upload([
      { name: "file", filename: LG1, content: sample(LG1) },
      { name: "companion", filename: LG2, content: sample(LG2) },
      { name: "companion", filename: "again.lg2", content: sample(LG2) },
    ]);
    expect(three.statusCode).toBe(400);
    expect(three.json().description).toBe("Send at most 2 files");
    expect(tempFiles()).toEqual([]);
  });

  it("refuses an AEM .daq with 422 saying to export it as CSV from AEMdata", async () => {
    const response = await upload([{ name: "file", filename: "aem.daq", content: sample("aem.daq") }]);
    expect(response.statusCode).toBe(422);
    expect(response.json().data.code).toBe("unsupported");
    expect(response.json().description).toMatch(/^An AEM \.daq log: .*Export it as CSV from AEMdata/);
  });

  it("refuses an ECUMaster .emublog with 422 naming the logger, after unpacking it", async () => {
    const name = "ecumaster-220kpa.emublog";
    const response = await upload([{ name: "file", filename: name, content: sample(name) }]);
    expect(response.statusCode).toBe(422);
    expect(response.json().description).toMatch(/^An ECUMaster EMU \.emublog log: it holds 1740 frames/);
  });
});
