/**
 * User vehicles (spec §7 "User vehicles"): the cars themselves (records.ts) and
 * their history and files (history.ts). Tunes, bakes and stock reads of a car
 * are in vehicle-bakes.ts, its flash sessions in flash-logs.ts.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { vehicleHistoryRoutes } from "./history";
import { vehicleRecordRoutes } from "./records";

export async function userVehicleRoutes(app: FastifyInstance, options: { ctx: AppContext }) {
  await app.register(vehicleRecordRoutes, options);
  await app.register(vehicleHistoryRoutes, options);
}
