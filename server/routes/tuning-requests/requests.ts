/**
 * The queue of tuning requests, asking a dealer for a tune (the car must be the caller's), one
 * ticket, and moving it: one action at a time (services/tuning-requests/actions.ts).
 */
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  tuningRequestCreateSchema,
  tuningRequestPageSchema,
  tuningRequestPatchSchema,
  tuningRequestSchema,
} from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { HttpError } from "../../errors";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { Refusal } from "../../services/errors";
import { vehicleFor } from "../../services/tune-access";
import { actOnRequest } from "../../services/tuning-requests/actions";
import { requestTicket } from "../../services/tuning-requests/answers";
import { askForTune, refusedField } from "../../services/tuning-requests/asking";
import { requestPageOf } from "../../services/tuning-requests/lists";
import { listSpec, REQUESTS } from "./common";

/** A car the caller cannot reach is a field of the body they got wrong, not a missing page. */
const noVehicleOfYours = (error: unknown): never => {
  const missing =
    (error instanceof HttpError && error.statusCode === 404) ||
    (error instanceof Refusal && error.kind === "not_found");
  throw missing ? refusedField("vehicleId", "no such vehicle of yours") : error;
};

export function registerRequestRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    REQUESTS,
    { config: { list: listSpec }, schema: { response: { 200: tuningRequestPageSchema } } },
    async (request) =>
      requestPageOf(ctx, callerOf(request), (select, scope) =>
        runList(db, listSpec, listQueryOf(request, listSpec), select, scope),
      ),
  );

  /**
   * A customer asks a dealer: the car must be theirs and have a stock read of the software it
   * runs now (its identity and that read are attached), the dealer approved, the logs theirs.
   */
  app.post(
    REQUESTS,
    { schema: { body: tuningRequestCreateSchema, response: { 201: tuningRequestSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const car = await vehicleFor(db, request.body.vehicleId, caller).catch(noVehicleOfYours);
      return reply.status(201).send(await askForTune(ctx, caller, car, request.body));
    },
  );

  app.get(
    `/${apiRoutes.tuningRequests.record(":id")}`,
    { schema: { params: idParams, response: { 200: tuningRequestSchema } } },
    async (request) => requestTicket(db, callerOf(request), request.params.id),
  );

  /** One action: a transition by the side allowed to make it (409 naming the state and who may), a message, an assignment or "read". */
  app.patch(
    `/${apiRoutes.tuningRequests.record(":id")}`,
    { schema: { params: idParams, body: tuningRequestPatchSchema, response: { 200: tuningRequestSchema } } },
    async (request) => actOnRequest(ctx, callerOf(request), request.params.id, request.body, request),
  );
}
