/**
 * Markers of data logs: listed for whoever may read the log (and for a live share link's holder),
 * added, changed and removed by whoever may change it.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  dataLogMarkerInputSchema,
  dataLogMarkerPageSchema,
  dataLogMarkerPatchSchema,
  dataLogMarkerSchema,
} from "../../contracts/data-log-markers";
import type { AppContext } from "../context";
import { callerOf } from "../http/auth";
import type { ZodTypeProvider } from "../http/zod";
import { addMarker, deleteMarker, markersOf, sharedMarkers, updateMarker } from "../services/data-log-markers";
import { tokenParams } from "./data-log-shares";

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const markerParams = z.strictObject({
  id: z.uuid("id must be a UUID"),
  markerId: z.uuid("markerId must be a UUID"),
});

const LIST = `/${apiRoutes.dataLogMarkers.list(":id")}`;
const RECORD = `/${apiRoutes.dataLogMarkers.record(":id", ":markerId")}`;

export async function dataLogMarkerRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(LIST, { schema: { params: idParams, response: { 200: dataLogMarkerPageSchema } } }, async (request) => {
    const { markers, writable } = await markersOf(ctx.db, callerOf(request), request.params.id);
    return { data: markers, total: markers.length, writable };
  });

  app.post(
    LIST,
    { schema: { params: idParams, body: dataLogMarkerInputSchema, response: { 201: dataLogMarkerSchema } } },
    async (request, reply) => {
      const requester = { caller: callerOf(request), id: request.id };
      return reply.status(201).send(await addMarker(ctx.db, requester, request.params.id, request.body));
    },
  );

  app.patch(
    RECORD,
    { schema: { params: markerParams, body: dataLogMarkerPatchSchema, response: { 200: dataLogMarkerSchema } } },
    async (request) => {
      const { id, markerId } = request.params;
      return updateMarker(ctx.db, { caller: callerOf(request), id: request.id }, id, markerId, request.body);
    },
  );

  app.delete(RECORD, { schema: { params: markerParams } }, async (request, reply) => {
    const { id, markerId } = request.params;
    await deleteMarker(ctx.db, { caller: callerOf(request), id: request.id }, id, markerId);
    return reply.status(204).send();
  });

  // The share link's holder reads the markers with the log: signed in or not.
  app.get(
    `/${apiRoutes.dataLogMarkers.shared(":token")}`,
    { config: { public: true }, schema: { params: tokenParams, response: { 200: dataLogMarkerPageSchema } } },
    async (request) => {
      const data = await sharedMarkers(ctx.db, request.params.token);
      return { data, total: data.length, writable: false };
    },
  );
}
