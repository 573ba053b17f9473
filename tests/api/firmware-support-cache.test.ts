import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchState } from "../../domain/tune";
import { catalogueGeneration, firmwareSupport, tuneFilePatches } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "CACHE64K" });

/** Identities and patches are kept between requests; every way the catalogue can change must show at the next one. */
describe.each(apiDatabases)("kept firmware identities and patches on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let patchId: string;

  const generation = async () => (await app.ctx.db.select().from(catalogueGeneration))[0].generation;
  const apply = async () => {
    const response = await upload("/tune-file-patches/apply", dealer, demo.stock, { patchIds: patchId });
    expect(response.statusCode, response.body).toBe(200);
    return new Uint8Array(Buffer.from(response.json().image, "base64"));
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer] = await createUsers(test, ["admin", "dealer"]);
    await storeFirmware(admin, demo);
    const { id: _id, ...patch } = demo.patches[0];
    const stored = await call("PUT", "/tune-file-patches", admin, patch);
    expect(stored.statusCode, stored.body).toBe(201);
    patchId = stored.json().id;
  });
  afterAll(async () => test?.close());

  it("sees a patch rewritten outside the API at the next request", async () => {
    expect(patchState(await apply(), demo.patches[0]).state).toBe("applied");
    const [first, ...rest] = demo.patches[0].entries;
    const changed = {
      ...first,
      patch: Buffer.from(Buffer.from(first.patch, "hex").map((b) => b ^ 0x0f)).toString("hex"),
    };
    await app.ctx.db
      .update(tuneFilePatches)
      .set({ entries: [changed, ...rest] })
      .where(eq(tuneFilePatches.id, patchId));
    const image = await apply();
    expect(
      Buffer.from(image.subarray(changed.address, changed.address + changed.patch.length / 2)).toString("hex"),
    ).toBe(changed.patch);
  });

  it("sees a firmware record's new identify rules at the next inspection, and forgets nothing for a write rolled back", async () => {
    expect((await upload("/tune-files/inspect", dealer, demo.stock)).json().firmwareId).toBe("CACHE64K");
    const before = await generation();
    await expect(
      app.ctx.db.transaction(async (tx) => {
        await tx.update(firmwareSupport).set({ identify: [] }).where(eq(firmwareSupport.firmwareId, "CACHE64K"));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await generation()).toBe(before);
    expect((await upload("/tune-files/inspect", dealer, demo.stock)).json().firmwareId).toBe("CACHE64K");

    const other = { address: 0, bytes: (demo.stock[0] ^ 0xff).toString(16).padStart(2, "0") };
    await app.ctx.db
      .update(firmwareSupport)
      .set({ identify: [other] })
      .where(eq(firmwareSupport.firmwareId, "CACHE64K"));
    expect(await generation()).toBeGreaterThan(before);
    const report = (await upload("/tune-files/inspect", dealer, demo.stock)).json();
    expect(report.firmwareId).toBeNull();
    expect(report.notes[0]).toContain("unknown firmware");
  });
});
