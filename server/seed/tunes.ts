import { and, eq } from "drizzle-orm";
import type { Role } from "../../contracts/account";
import type { AppContext } from "../context";
import {
  firmwareSupport,
  supportedVehicles,
  tuneFilePatches,
  tuneFilePurchases,
  tuneFiles,
  tuneFileVersions,
  userVehicles,
} from "../db/schema";
import { verifyAll } from "../services/tune-engine";
import { DEMO_ECU } from "./flashing-profile";
import { generateDemo } from "./generator";

/**
 * 512 KiB keeps start-up quick; the generator makes the same bytes from the
 * same options every time, so browser tests build the demo tune with these.
 */
export const DEMO_TUNE_OPTIONS = { size: 512 * 1024, itemCount: 24, patchEntries: 8 } as const;
/** A valid VIN (17 characters, no I, O or Q): the app and the pre-flight check it like any other. */
export const DEMO_VIN = "WDEMZZZ0000000001";

/**
 * The tune-file demo: a demo firmware with its stock file and
 * definition, its patches, a published tune by the demo dealer, and the demo
 * customer's car with its stock read and that tune bought for it, so that
 * inspecting, baking and the patch tools all work on `npm start`. Each row is
 * looked up before it is written, so a second start changes nothing.
 */
export async function seedTunes(ctx: AppContext, accounts: { uid: string; role: Role }[]) {
  const dealer = accounts.find((a) => a.role === "dealer")!;
  const customer = accounts.find((a) => a.role === "customer")!;
  const demo = generateDemo(DEMO_TUNE_OPTIONS);
  const { firmware } = demo;
  const stockSha256 = await ctx.blobs.put(demo.stock);
  await ctx.db
    .insert(firmwareSupport)
    .values({
      firmwareId: firmware.firmwareId,
      ecuFamily: "DEMO-ECU",
      manufacturer: "Demo Motors",
      imageSize: firmware.imageSize,
      identify: firmware.identify,
      checksums: firmware.checksums,
      definition: firmware.definition as unknown as Record<string, unknown>,
      notes: "Generated demo firmware (server/seed/generator.ts): no real ECU runs it.",
      stockSha256,
      stockSize: demo.stock.length,
      stockUploadedAt: new Date(),
    })
    .onConflictDoNothing({ target: firmwareSupport.firmwareId });

  for (const patch of demo.patches) {
    const [exists] = await ctx.db
      .select({ id: tuneFilePatches.id })
      .from(tuneFilePatches)
      .where(eq(tuneFilePatches.title, patch.title));
    if (!exists)
      await ctx.db.insert(tuneFilePatches).values({
        title: patch.title,
        description: patch.description,
        firmwareIds: patch.firmwareIds,
        entries: patch.entries,
      });
  }

  const tune = await seedDemoTune(ctx, demo, dealer.uid);

  // The demo car's family in the supported-vehicle catalogue: the dealer directory lists it under the demo dealer.
  const [family] = await ctx.db
    .select({ id: supportedVehicles.id })
    .from(supportedVehicles)
    .where(and(eq(supportedVehicles.make, "Demo Motors"), eq(supportedVehicles.model, "Hatchback")));
  if (!family) {
    await ctx.db.insert(supportedVehicles).values({
      make: "Demo Motors",
      model: "Hatchback",
      generation: "Mk1",
      engine: "2.0 turbo",
      yearFrom: 2018,
      yearTo: null,
      ecu: "DEMO-ECU",
      firmwareIds: [firmware.firmwareId],
    });
  }

  let [vehicle] = await ctx.db
    .select()
    .from(userVehicles)
    .where(and(eq(userVehicles.ownerUid, customer.uid), eq(userVehicles.vin, DEMO_VIN)));
  if (!vehicle) {
    [vehicle] = await ctx.db
      .insert(userVehicles)
      .values({
        ownerUid: customer.uid,
        name: "Demo hatchback",
        vin: DEMO_VIN,
        // The ECU as the phone app reads it, so that the app's connect finds this car.
        softwareId: firmware.firmwareId,
        ...DEMO_ECU,
        firmwareId: firmware.firmwareId,
        stockDumpSha256: stockSha256,
        stockDumpSize: demo.stock.length,
        stockDumpSlot: 0,
        stockDumpUploadedAt: new Date(),
      })
      .returning();
  }
  await ctx.db
    .insert(tuneFilePurchases)
    .values({ customerUid: customer.uid, tuneFileId: tune.id, vehicleId: vehicle.id, grantedBy: dealer.uid })
    .onConflictDoNothing();
}

/** The demo dealer's published tune with its first version, written once. */
async function seedDemoTune(ctx: AppContext, demo: ReturnType<typeof generateDemo>, dealerUid: string) {
  const { firmware } = demo;
  let [tune] = await ctx.db
    .select()
    .from(tuneFiles)
    .where(and(eq(tuneFiles.dealerUid, dealerUid), eq(tuneFiles.title, demo.tune.title)));
  if (!tune) {
    const tuneSha256 = await ctx.blobs.put(demo.tune.image);
    [tune] = await ctx.db
      .insert(tuneFiles)
      .values({
        dealerUid: dealerUid,
        firmwareId: firmware.firmwareId,
        title: demo.tune.title,
        description: demo.tune.description,
        published: true,
        priceCents: 24900,
        currency: "EUR",
        mayView: true,
        mayDownload: false,
      })
      .returning();
    const checksums = verifyAll(demo.tune.image, firmware.checksums).map(({ name, type, valid, stored, computed }) => ({
      name,
      type,
      valid,
      stored,
      computed,
    }));
    await ctx.db.insert(tuneFileVersions).values({
      tuneFileId: tune.id,
      number: 1,
      label: "1.0",
      sha256: tuneSha256,
      size: demo.tune.image.length,
      checksums,
      createdBy: dealerUid,
    });
  }
  return tune;
}
