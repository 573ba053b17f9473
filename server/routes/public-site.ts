import fastifyRateLimit from "@fastify/rate-limit";
import { asc } from "drizzle-orm";
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
import { contactRequests, demoRequests, supportedVehicles } from "../db/schema";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";

/** Anonymous forms: a person sends a few; a script sending more is refused with 429. */
const FORM_LIMIT = { max: 5, timeWindow: "10 minutes" };
/** The supported-vehicles read is cheap and cached by nobody else, but still bounded per visitor. */
const READ_LIMIT = { max: 60, timeWindow: "1 minute" };
const SUPPORTED_VEHICLES_SHOWN = 500;

const textEmpty = (value: string | undefined) => (value ? value : null);

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
  await app.register(fastifyRateLimit, { global: false });

  app.post(
    "/contact-requests",
    {
      config: { public: true, rateLimit: FORM_LIMIT },
      schema: { body: contactRequestSchema, response: { 201: createdRequestSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      const [row] = await ctx.db
        .insert(contactRequests)
        .values({
          name: input.name,
          email: input.email,
          topic: input.topic,
          vehicle: textEmpty(input.vehicle),
          message: input.message,
        })
        .returning({ id: contactRequests.id, createdAt: contactRequests.createdAt });
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
      const [row] = await ctx.db
        .insert(demoRequests)
        .values({
          name: input.name,
          email: input.email,
          businessName: input.businessName,
          phone: textEmpty(input.phone),
          country: textEmpty(input.country),
          platforms: textEmpty(input.platforms),
          message: textEmpty(input.message),
        })
        .returning({ id: demoRequests.id, createdAt: demoRequests.createdAt });
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
      const page = await runList(
        ctx.db,
        contactList,
        listQueryOf(request, contactList),
        ({ where, orderBy, limit, offset }) =>
          ctx.db
            .select()
            .from(contactRequests)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
      );
      return { ...page, data: page.data.map(withIsoTime) };
    },
  );
  app.get(
    `/${apiPaths["demo-requests"].list}`,
    { config: { role: "admin", list: demoList }, schema: { response: { 200: demoRequestPageSchema } } },
    async (request) => {
      const page = await runList(
        ctx.db,
        demoList,
        listQueryOf(request, demoList),
        ({ where, orderBy, limit, offset }) =>
          ctx.db
            .select()
            .from(demoRequests)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
      );
      return { ...page, data: page.data.map(withIsoTime) };
    },
  );

  // The catalogue's supported-vehicle list is an admin resource with firmware ids; visitors see families only.
  app.get(
    `/${apiRoutes.publicSite.supportedVehicles()}`,
    { config: { public: true, rateLimit: READ_LIMIT }, schema: { response: { 200: publicSupportedVehiclesSchema } } },
    async () => {
      const rows = await ctx.db
        .selectDistinct({
          make: supportedVehicles.make,
          model: supportedVehicles.model,
          generation: supportedVehicles.generation,
          engine: supportedVehicles.engine,
          yearFrom: supportedVehicles.yearFrom,
          yearTo: supportedVehicles.yearTo,
        })
        .from(supportedVehicles)
        .orderBy(
          asc(supportedVehicles.make),
          asc(supportedVehicles.model),
          asc(supportedVehicles.generation),
          asc(supportedVehicles.engine),
          asc(supportedVehicles.yearFrom),
        )
        .limit(SUPPORTED_VEHICLES_SHOWN);
      return { data: rows satisfies PublicSupportedVehicle[] };
    },
  );
}
