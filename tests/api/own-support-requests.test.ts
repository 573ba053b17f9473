import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OwnSupportRequest } from "../../contracts/firmware-support";
import type { NotificationPage } from "../../contracts/notifications";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { firmwareRecordOf, requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 2, firmwareId: "MINE64K" });
const PATH = "/user-vehicles/support-request";
const vehicle = (model: string) => ({
  vin: "WVWZZZAUZKW765432",
  make: "Volkswagen",
  model,
  year: 2020,
  ecuIds: ["5G0906259Q"],
});

interface OwnPage {
  data: OwnSupportRequest[];
  total: number;
  nextCursor?: string;
}

describe.each(apiDatabases)("a requester's own support requests on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let admin: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  /** The customer's requests, oldest first. */
  const asked: string[] = [];

  const { call, upload } = requestsTo(() => app);
  const ask = async (user: TestUser, model: string) => {
    const response = await call("POST", PATH, user, vehicle(model));
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const mine = async (user: TestUser, query = "") => {
    const response = await call("GET", `${PATH}/mine${query}`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as OwnPage;
  };
  const work = async (id: string, change: Record<string, unknown>) => {
    const response = await call("PATCH", `${PATH}/${id}`, admin, change);
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, customer, stranger] = await createUsers(test, ["admin", "customer", "customer"]);
    const firmware = await call("PUT", "/firmware-support/firmware-support", admin, firmwareRecordOf(demo));
    expect(firmware.statusCode, firmware.body).toBe(201);
    asked.push(await ask(customer, "Golf"), await ask(customer, "Passat"));
    const read = new Uint8Array(2048).fill(3);
    const withRead = await upload(
      PATH,
      customer,
      read,
      { ...vehicle("Tiguan"), year: "2020", ecuIds: JSON.stringify(["5G0906259Q"]) },
      "read.bin",
    );
    expect(withRead.statusCode, withRead.body).toBe(201);
    asked.push(withRead.json().id);
    await ask(stranger, "Arteon");
  });
  afterAll(async () => {
    await test?.close();
  });

  it("lists only the caller's own requests, newest first, without the requester fields or the admins' notes", async () => {
    const page = await mine(customer);
    expect(page.total).toBe(3);
    expect(page.data.map((r) => r.id)).toEqual([...asked].reverse());
    expect(page.data.map((r) => r.model)).toEqual(["Tiguan", "Passat", "Golf"]);
    expect(page.data[0]).toMatchObject({ status: "new", firmwareId: null, history: [], readFile: { size: 2048 } });
    expect(
      Object.keys(page.data[0]).filter((key) => ["requesterUid", "requesterEmail", "notes"].includes(key)),
    ).toEqual([]);

    const strangers = await mine(stranger);
    expect(strangers.data.map((r) => r.model)).toEqual(["Arteon"]);
    expect(strangers.total).toBe(1);
  });

  it("pages by page number and by cursor without overlap", async () => {
    const first = await mine(customer, "?pageSize=2");
    expect(first.data.map((r) => r.model)).toEqual(["Tiguan", "Passat"]);
    expect(first.total).toBe(3);
    const second = await mine(customer, "?pageSize=2&page=2");
    expect(second.data.map((r) => r.model)).toEqual(["Golf"]);
    const after = await mine(customer, `?pageSize=2&after=${first.nextCursor}`);
    expect(after.data.map((r) => r.model)).toEqual(["Golf"]);
    const oldestFirst = await mine(customer, "?sort=createdAt");
    expect(oldestFirst.data.map((r) => r.id)).toEqual(asked);
  });

  it("answers 404 for another user's request, the same as for one that does not exist, even to an admin", async () => {
    const own = await call("GET", `${PATH}/mine/${asked[0]}`, customer);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id: asked[0], model: "Golf", status: "new" });

    const theirs = await call("GET", `${PATH}/mine/${asked[0]}`, stranger);
    expect(theirs.statusCode).toBe(404);
    const missing = await call("GET", `${PATH}/mine/00000000-0000-4000-8000-000000000000`, stranger);
    expect(missing.statusCode).toBe(404);
    expect((await call("GET", `${PATH}/mine/${asked[0]}`, admin)).statusCode).toBe(404);
    expect((await call("GET", `${PATH}/mine/not-an-id`, customer)).statusCode).toBe(400);
  });

  it("keeps /mine apart from the admins' /{id} routes, and both refuse signed-out callers", async () => {
    // An admin's own list, not the admin route reading "mine" as an id.
    const adminsOwn = await call("GET", `${PATH}/mine`, admin);
    expect(adminsOwn.statusCode, adminsOwn.body).toBe(200);
    expect(adminsOwn.json().total).toBe(0);
    expect((await call("GET", `${PATH}/${asked[0]}`, customer)).statusCode).toBe(403);
    expect((await call("GET", `${PATH}/${asked[0]}`, admin)).json().requesterUid).toBe(customer.uid);
    expect((await call("GET", `${PATH}/mine`, null)).statusCode).toBe(401);
    const unknownFilter = await call("GET", `${PATH}/mine?requesterUid[eq]=${stranger.uid}`, customer);
    expect(unknownFilter.statusCode).toBe(400);
  });

  it("shows each change of status with the note the requester was told, and the firmware only once supported", async () => {
    const [golf, passat] = asked;
    await work(golf, { status: "investigating", note: "please send a full read" });
    await work(golf, { note: "internal: ask the supplier about this ECU", firmwareId: demo.firmware.firmwareId });
    let seen = (await call("GET", `${PATH}/mine/${golf}`, customer)).json() as OwnSupportRequest;
    expect(seen).toMatchObject({ status: "investigating", firmwareId: null });
    expect(seen.history).toEqual([
      { at: expect.any(String), status: "investigating", note: "please send a full read" },
    ]);
    expect(JSON.stringify(seen)).not.toContain("internal");

    await work(golf, { status: "supported", firmwareId: demo.firmware.firmwareId });
    await work(passat, { status: "rejected", note: "this ECU cannot be read over OBD" });
    seen = (await call("GET", `${PATH}/mine/${golf}`, customer)).json();
    expect(seen).toMatchObject({ status: "supported", firmwareId: demo.firmware.firmwareId });
    expect(seen.history.map(({ status, note }) => ({ status, note }))).toEqual([
      { status: "investigating", note: "please send a full read" },
      { status: "supported", note: null },
    ]);
    expect(Date.parse(seen.history[1].at)).toBeGreaterThanOrEqual(Date.parse(seen.history[0].at));

    const list = await mine(customer);
    expect(list.data.map((r) => [r.model, r.status])).toEqual([
      ["Tiguan", "new"],
      ["Passat", "rejected"],
      ["Golf", "supported"],
    ]);
    expect((await mine(customer, "?status[eq]=rejected")).data.map((r) => r.model)).toEqual(["Passat"]);
  });

  it("links the investigating notification to the request on the requester's page", async () => {
    const response = await call("GET", `/users/${customer.uid}/notifications`, customer);
    const investigating = (response.json() as NotificationPage).data.find(
      (n) => n.kind === "support-request.investigating",
    );
    expect(investigating?.link).toBe(`/vehicle-support/show/${asked[0]}`);
  });
});
