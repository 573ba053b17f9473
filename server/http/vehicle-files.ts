/**
 * A car's files as downloads, answered the same wherever they are reached from (their own
 * endpoint, or the car's attach-file): name, type and the SHA-256 the app checks.
 */
import type { FastifyReply } from "fastify";
import type { AppContext } from "../context";
import { notFound } from "../errors";
import type { BakedRow, VehicleRow } from "../services/tune-access";

export async function sendStockRead(reply: FastifyReply, ctx: AppContext, vehicle: VehicleRow) {
  if (!vehicle.stockDumpSha256) throw notFound(`A stock read for vehicle ${vehicle.id}`);
  const body = await ctx.blobs.stream(vehicle.stockDumpSha256);
  return reply
    .header("content-type", "application/octet-stream")
    .header("content-disposition", `attachment; filename="${vehicle.vin ?? vehicle.id}-stock.bin"`)
    .header("x-content-sha256", vehicle.stockDumpSha256)
    .send(body);
}

export async function sendBakedFile(reply: FastifyReply, ctx: AppContext, row: BakedRow) {
  const body = await ctx.blobs.stream(row.sha256);
  return reply
    .header("content-type", "application/octet-stream")
    .header("content-disposition", `attachment; filename="${row.firmwareId}-baked-${row.sha256.slice(0, 8)}.bin"`)
    .header("x-content-sha256", row.sha256)
    .send(body);
}
