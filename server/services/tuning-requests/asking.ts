/**
 * A customer asks a dealer for a custom tune: the car must be theirs and have a stock read of the
 * software it runs now (its identity and that read are attached), the dealer approved, the logs
 * theirs. The request, its stock-read file and the thread's first entry are made together.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { TuningRequest, tuningRequestCreateSchema } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { dataLogs, dealerProfiles, tuningRequestFiles, tuningRequests } from "../../db/schema";
import { invalid, Refusal } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { VehicleRow } from "../tune-access";
import { readImage } from "../tune-files";
import { firmwareOfImage } from "../tune-uploads";
import { ticketFor } from "./answers";
import { addToThread, tellOthers } from "./moves";

type DealerRow = typeof dealerProfiles.$inferSelect;
type AskBody = z.output<typeof tuningRequestCreateSchema>;

/** A field of the body that rules the request out, named in the 400. */
export const refusedField = (path: string, message: string) => invalid("Invalid body", message, [{ path, message }]);

/** The car is not ready for a dealer yet (422 naming the field). */
const notYet = (path: string, message: string) =>
  new Refusal("unprocessable", "Cannot ask yet", message, [{ path, message }]);

/** The caller's own data logs among `ids`; any other id is refused by name. */
export async function ownLogs(
  ctx: AppContext,
  caller: VerifiedCaller,
  ids: string[],
  path = "logIds",
): Promise<string[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const found = await ctx.db
    .select({ id: dataLogs.id })
    .from(dataLogs)
    .where(and(inArray(dataLogs.id, unique), eq(dataLogs.ownerUid, caller.uid)));
  const missing = unique.filter((id) => !found.some((row) => row.id === id));
  if (missing.length) throw refusedField(path, `no data log of yours: ${missing.join(", ")}`);
  return unique;
}

/** The approved dealer asked, once the car is the caller's and its stock read is of the software it runs now. */
async function dealerToAsk(
  ctx: AppContext,
  caller: VerifiedCaller,
  { vehicle, owner }: { vehicle: VehicleRow; owner: boolean },
  dealerId: string,
): Promise<DealerRow> {
  if (!owner) throw refusedField("vehicleId", "only the car's owner asks for a tune for it");
  const [dealer] = await ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.id, dealerId));
  if (dealer?.status !== "approved") throw refusedField("dealerId", "no approved dealer with this id");
  if (dealer.userUid === caller.uid) throw refusedField("dealerId", "you cannot ask yourself");
  if (!vehicle.stockDumpSha256 || !vehicle.stockDumpSize)
    throw notYet(
      "vehicleId",
      "the car has no stock read: read the ECU with the app first, so the dealer works from your car's own software",
    );
  // The read must be of the software the car runs now: a car flashed since has another base.
  const read = await firmwareOfImage(ctx, await readImage(ctx, vehicle.stockDumpSha256)).catch(() => null);
  if (!read || !vehicle.firmwareId || read.firmwareId !== vehicle.firmwareId) {
    throw notYet(
      "vehicleId",
      `the stock read is of ${read?.firmwareId ?? "firmware we do not know"} but the car now runs ${vehicle.softwareId ?? vehicle.firmwareId ?? "unknown software"}: read the stock again with the app`,
    );
  }
  return dealer;
}

/** Opens the request for the car (as `vehicleFor` gave it to the caller) and answers its ticket. */
export async function askForTune(
  ctx: AppContext,
  caller: VerifiedCaller,
  car: { vehicle: VehicleRow; owner: boolean },
  body: AskBody,
): Promise<TuningRequest> {
  const dealer = await dealerToAsk(ctx, caller, car, body.dealerId);
  const logIds = await ownLogs(ctx, caller, body.logIds);
  const { vehicle } = car;
  const row = await ctx.notifications.transaction(async (tx, notify) => {
    const [made] = await tx
      .insert(tuningRequests)
      .values({
        customerUid: caller.uid,
        dealerUid: dealer.userUid,
        vehicleId: vehicle.id,
        vehicleName: vehicle.name,
        vin: vehicle.vin,
        ecuSerial: vehicle.ecuSerial,
        softwareId: vehicle.softwareId,
        firmwareId: vehicle.firmwareId!,
        stockSha256: vehicle.stockDumpSha256!,
        stockSize: vehicle.stockDumpSize!,
        questionnaire: body.questionnaire,
        logIds,
        freeRevisionDays: dealer.freeRevisionDays,
      })
      .returning();
    const [stock] = await tx
      .insert(tuningRequestFiles)
      .values({
        requestId: made.id,
        vehicleId: vehicle.id,
        kind: "stock-read",
        name: `${vehicle.firmwareId}-stock.bin`,
        sha256: made.stockSha256,
        size: made.stockSize,
        senderUid: caller.uid,
        sender: "customer",
      })
      .returning();
    await addToThread(tx, made.id, {
      kind: "submitted",
      actor: "customer",
      actorUid: caller.uid,
      to: "submitted",
      text: body.questionnaire.notes,
      logIds,
      fileIds: [stock.id],
    });
    await tellOthers(notify, made, "customer", {
      title: `a custom tune asked for ${vehicle.name}`,
      body: `${vehicle.firmwareId}, ${body.questionnaire.fuel}${body.questionnaire.targetPowerHp ? `, aiming for ${body.questionnaire.targetPowerHp} hp` : ""}`,
    });
    return made;
  });
  return ticketFor(ctx.db, row, caller);
}
