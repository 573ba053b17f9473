/** The car's licences, for whoever may see the car: the list, its changes as events, and removing one. */

import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { LICENCES_EVENT, licenceListSchema, purchaseRemovalSchema } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { EventStreams } from "../../http/event-stream";
import { EVENT_STREAM } from "../../http/media";
import type { ZodTypeProvider } from "../../http/zod";
import { licencesFor, licencesOf, removeLicence } from "../../services/payments/licences";
import { vehicleFor } from "../../services/tune-access";

export function registerLicenceRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, response: { 200: licenceListSchema } } },
    async (request) => ({ data: await licencesFor(db, callerOf(request), request.params.id) }),
  );

  /**
   * The car's licences as they change (Server-Sent Events): `licences` with the whole list on
   * connecting and after every paid, refunded or ended order. The app waits here after a checkout.
   */
  const streams = new EventStreams(plugin);
  app.get(
    `/${apiRoutes.vehicles.purchasesListen(":id")}`,
    { config: { media: EVENT_STREAM }, handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const stream = streams.start(reply);
      const send = async () => stream.send(LICENCES_EVENT, { data: await licencesOf(db, vehicle.id) });
      const unsubscribe = ctx.vehicleEvents.subscribe(vehicle.id, (event) => {
        if (event.type === "order")
          void send().catch((error: unknown) => request.log.warn({ err: error }, "licences not sent"));
      });
      stream.onClose(unsubscribe);
      await send();
      return reply;
    },
  );

  /** Removes a licence (an admin, or the dealer who sold it); a paid one is refunded. */
  app.post(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, body: purchaseRemovalSchema, response: { 200: licenceListSchema } } },
    async (request) => ({
      data: await removeLicence(ctx, { caller: callerOf(request), id: request.id }, request.params.id, request.body),
    }),
  );
}
