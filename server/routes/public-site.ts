import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  contactRequestPageSchema,
  contactRequestSchema,
  createdRequestSchema,
  demoRequestPageSchema,
  demoRequestSchema,
  type PublicSupportedVehicle,
  publicSupportedVehiclesSchema,
} from "../../contracts/public-site";
import type { AppContext } from "../context";
import { contactRequests, demoRequests } from "../db/schema";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { rateLimitOptions } from "../http/rate-limits";
import type { ZodTypeProvider } from "../http/zod";
import {
  contactRequestPage,
  demoRequestPage,
  publicSupportedVehicles,
  saveContactRequest,
  saveDemoRequest,
} from "../services/public-site";

/** Anonymous forms: a person sends a few; a script sending more is refused with 429. */
const FORM_LIMIT = { max: 5, timeWindow: "10 minutes" };
/** The supported-vehicles read is cheap and cached by nobody else, but still bounded per visitor. */
const READ_LIMIT = { max: 60, timeWindow: "1 minute" };
const SUPPORTED_VEHICLES_SHOWN = 500;

const contactList: ListSpec = {
  table: contactRequests,
  id: contactRequests.id,
  fields: {
    name: { column: contactRequests.name, kind: "text" },
    email: { column: contactRequests.email, kind: "text" },
    topic: { column: contactRequests.topic, kind: "text" },
    createdAt: { column: contactRequests.createdAt, kind: "timestamp" },
  },
  allowed: { sort: ["createdAt", "name", "email", "topic"], filter: ["topic", "email", "createdAt"] },
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

const demoList: ListSpec = {
  table: demoRequests,
  id: demoRequests.id,
  fields: {
    name: { column: demoRequests.name, kind: "text" },
    email: { column: demoRequests.email, kind: "text" },
    businessName: { column: demoRequests.businessName, kind: "text" },
    country: { column: demoRequests.country, kind: "text" },
    createdAt: { column: demoRequests.createdAt, kind: "timestamp" },
  },
  allowed: { sort: ["createdAt", "name", "businessName", "country"], filter: ["email", "country", "createdAt"] },
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

/** The public site's server side: its two forms (stored, listed for admins) and the supported-vehicle overview. */
export async function publicSiteRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  // Registered inside this plugin with global: false, so only the routes below that ask for a limit have one.
  await app.register(fastifyRateLimit, rateLimitOptions(ctx));

  app.post(
    "/contact-requests",
    {
      config: { public: true, rateLimit: FORM_LIMIT },
      schema: { body: contactRequestSchema, response: { 201: createdRequestSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      const row = await saveContactRequest(ctx.db, input);
      return reply.status(201).send({ id: row.id, createdAt: row.createdAt.toISOString() });
    },
  );

  app.post(
    "/demo-requests",
    {
      config: { public: true, rateLimit: FORM_LIMIT },
      schema: { body: demoRequestSchema, response: { 201: createdRequestSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      const row = await saveDemoRequest(ctx.db, input);
      return reply.status(201).send({ id: row.id, createdAt: row.createdAt.toISOString() });
    },
  );

  const withIsoTime = <Row extends { createdAt: Date }>(row: Row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
  });
  app.get(
    `/${apiPaths["contact-requests"].list}`,
    { config: { role: "admin", list: contactList }, schema: { response: { 200: contactRequestPageSchema } } },
    async (request) => {
      const page = await runList(ctx.db, contactList, listQueryOf(request, contactList), (parts) =>
        contactRequestPage(ctx.db, parts),
      );
      return { ...page, data: page.data.map(withIsoTime) };
    },
  );
  app.get(
    `/${apiPaths["demo-requests"].list}`,
    { config: { role: "admin", list: demoList }, schema: { response: { 200: demoRequestPageSchema } } },
    async (request) => {
      const page = await runList(ctx.db, demoList, listQueryOf(request, demoList), (parts) =>
        demoRequestPage(ctx.db, parts),
      );
      return { ...page, data: page.data.map(withIsoTime) };
    },
  );

  // The catalogue's supported-vehicle list is an admin resource with firmware ids; visitors see families only.
  app.get(
    `/${apiRoutes.publicSite.supportedVehicles()}`,
    { config: { public: true, rateLimit: READ_LIMIT }, schema: { response: { 200: publicSupportedVehiclesSchema } } },
    async () => {
      const rows = await publicSupportedVehicles(ctx.db, SUPPORTED_VEHICLES_SHOWN);
      return { data: rows satisfies PublicSupportedVehicle[] };
    },
  );
}
