/**
 * Tuning requests: a customer asks a dealer for a custom tune for one of their cars, and the two
 * work one ticket to an accepted tune (contracts/tuning-requests.ts for the states and who moves
 * them, services/tuning-requests/ for the moves). Payment is the marketplace's order
 * (`POST /payments/tuning-request-order`); a cancellation or "not possible" after payment refunds
 * it there. A revision is checked as any tune upload (the car's firmware, valid checksums),
 * becomes a version of the request's tune file and is licensed to the car at once; the customer
 * reads it as map-level changes against the stock read and the previous revision.
 *
 * The queue, asking and moving the ticket are in requests.ts, the revisions and files of a ticket
 * and its event stream in files.ts, a car's requests in vehicles.ts, corrections from logs written
 * into the next revision in corrections.ts; all are routes of this one plugin. Delivered requests
 * are accepted after AUTO_ACCEPT_DAYS by the queue's "tuning-requests.auto-accept" job, and
 * dealers told of tickets due within a day or late by "tuning-requests.due-notices"
 * (services/background-jobs.ts).
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { EventStreams } from "../../http/event-stream";
import { registerCorrectionRoutes } from "./corrections";
import { registerTicketFileRoutes } from "./files";
import { registerRequestRoutes } from "./requests";
import { registerVehicleRequestRoutes } from "./vehicles";

export async function tuningRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRequestRoutes(plugin, ctx);
  registerTicketFileRoutes(plugin, ctx, new EventStreams(plugin));
  registerVehicleRequestRoutes(plugin, ctx);
  registerCorrectionRoutes(plugin, ctx);
}
