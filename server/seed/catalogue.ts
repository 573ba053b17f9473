/**
 * Demo catalogue, so that `npm start` shows real admin lists: two
 * firmware records with gaps for the support matrix, a supported vehicle, OBD
 * functions, PID descriptors from the VW_Flash sample, a template over them, a
 * computed boost channel and one open support request. Keyed by the natural
 * unique keys (or looked up first), so a second start changes nothing.
 */
import { and, eq } from "drizzle-orm";
import type { Role } from "../../contracts/account";
import type { AppContext } from "../context";
import {
  computedDescriptors,
  firmwareSupport,
  obdFunctions,
  pidDescriptors,
  pidTemplates,
  supportedVehicles,
  supportRequests,
} from "../db/schema";

const FIRMWARE = [
  {
    firmwareId: "DEMO-MED17-0001",
    ecuFamily: "MED17.5",
    manufacturer: "Bosch",
    imageSize: 2 * 1024 * 1024,
    notes: "Demo record without a stock file yet.",
  },
  {
    firmwareId: "DEMO-SIMOS18-0002",
    ecuFamily: "Simos18.1",
    manufacturer: "Continental",
    imageSize: 4 * 1024 * 1024,
    notes: "Demo record without a stock file yet.",
  },
];

/** Rows of shared/fixtures/pids/vwflash-parameters_22.csv. */
const PIDS = [
  {
    name: "Engine Speed",
    variable: "rpm",
    unit: "rpm",
    address: "0xF40C",
    length: 2,
    expression: "x / 4",
    decimals: 0,
    min: 0,
    max: 7000,
  },
  {
    name: "Ambient Press",
    variable: "amb_press",
    unit: "kpa",
    address: "0x13CA",
    length: 2,
    expression: "x / 120.60176665439",
    decimals: 1,
    min: 50,
    max: 120,
  },
  {
    name: "Manifold Press",
    variable: "map",
    unit: "kpa",
    address: "0x39C0",
    length: 2,
    expression: "x / 120.60176665439",
    decimals: 1,
    min: 0,
    max: 300,
  },
  {
    name: "Coolant Temp",
    variable: "coolant",
    unit: "°C",
    address: "0x11CD",
    length: 1,
    expression: "x - 40",
    decimals: 1,
    min: -50,
    max: 120,
  },
];

export async function seedCatalogue(ctx: AppContext, accounts: { uid: string; role: Role }[]) {
  const { db } = ctx;
  await db.insert(firmwareSupport).values(FIRMWARE).onConflictDoNothing({ target: firmwareSupport.firmwareId });
  const firmwareIds = FIRMWARE.map((f) => f.firmwareId);

  const [vehicle] = await db
    .select({ id: supportedVehicles.id })
    .from(supportedVehicles)
    .where(and(eq(supportedVehicles.make, "Volkswagen"), eq(supportedVehicles.model, "Golf GTI")));
  if (!vehicle) {
    await db.insert(supportedVehicles).values({
      make: "Volkswagen",
      model: "Golf GTI",
      generation: "Mk7",
      engine: "EA888 Gen3 2.0 TSI",
      yearFrom: 2013,
      yearTo: 2020,
      ecu: "Simos 18.1",
      firmwareIds: [firmwareIds[1]],
    });
  }

  await db
    .insert(obdFunctions)
    .values([
      {
        name: "Read fault codes",
        category: "read-codes",
        description: "All stored and pending DTCs",
        request: "1902FF",
        expectedResponse: "5902",
        firmwareIds: [],
      },
      {
        name: "Clear fault codes",
        category: "clear-codes",
        description: "Clears every DTC and freeze frame",
        request: "14FFFFFF",
        expectedResponse: "54",
        safetyLevel: "caution",
        confirmationText: "Clear all fault codes? Readiness monitors reset too.",
      },
      {
        name: "Reset throttle adaptation",
        category: "reset-adaptations",
        request: "3101F001",
        expectedResponse: "7101F001",
        firmwareIds,
        safetyLevel: "dangerous",
        confirmationText: "Ignition on, engine off, pedal released. Continue?",
      },
    ])
    .onConflictDoNothing({ target: obdFunctions.name });

  await db
    .insert(pidDescriptors)
    .values(PIDS.map((pid) => ({ ...pid, source: "uds" as const, firmwareIds: [firmwareIds[1]] })))
    .onConflictDoNothing({ target: pidDescriptors.variable });
  const descriptors = await db
    .select({ id: pidDescriptors.id, variable: pidDescriptors.variable })
    .from(pidDescriptors);
  const idOf = (variable: string) => descriptors.find((d) => d.variable === variable)!.id;
  await db
    .insert(pidTemplates)
    .values({
      name: "Boost logging",
      description: "Boost, load and temperatures for a pull",
      descriptorIds: ["rpm", "map", "amb_press", "coolant"].map(idOf),
      sampleRateHz: 20,
      firmwareIds: [firmwareIds[1]],
    })
    .onConflictDoNothing({ target: pidTemplates.name });
  await db
    .insert(computedDescriptors)
    .values({
      name: "Boost",
      variable: "boost",
      unit: "psi",
      expression: "(map - amb_press) * 0.1450777202",
      variables: ["map", "amb_press"],
      decimals: 1,
      min: -15,
      max: 35,
    })
    .onConflictDoNothing({ target: computedDescriptors.variable });

  const customer = accounts.find((a) => a.role === "customer");
  if (customer) await seedSupportRequest(ctx, customer.uid);
}

/** One open support request of the demo customer, so the admin list has one to answer. */
async function seedSupportRequest({ db }: AppContext, uid: string) {
  const vin = "WAUZZZ8V5KA000001";
  const [asked] = await db
    .select({ id: supportRequests.id })
    .from(supportRequests)
    .where(and(eq(supportRequests.requesterUid, uid), eq(supportRequests.vin, vin)));
  if (!asked)
    await db
      .insert(supportRequests)
      .values({ requesterUid: uid, vin, make: "Audi", model: "S3", year: 2019, ecuIds: ["8V0906259K"] });
}
