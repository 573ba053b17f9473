/**
 * Password storage: the security-access passwords per firmware, sealed at
 * rest, masked in lists, revealed one at a time and logged.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type FirmwareSecretRow,
  firmwareSecretInputSchema,
  firmwareSecretList,
  firmwareSecretPageSchema,
  firmwareSecretRowSchema,
} from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { firmwareSecrets } from "../../db/schema";
import { callerOf } from "../../http/auth";
import { idParams, uniqueConflict } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { actorFrom } from "../../services/audit";
import {
  deleteFirmwareSecret,
  firmwareSecretPage,
  revealFirmwareSecret,
  saveFirmwareSecret,
} from "../../services/password-storage";
import { admin, iso } from "./common";

const PASSWORDS = `/${apiPaths["password-storage"].list}`;

export async function passwordStorageRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const mask = (row: typeof firmwareSecrets.$inferSelect): FirmwareSecretRow => ({
    id: row.id,
    firmwareId: row.firmwareId,
    label: row.label,
    securityLevel: row.securityLevel,
    secret: "••••••••",
    updatedAt: iso(row.updatedAt)!,
  });
  const secretListSpec: ListSpec = {
    table: firmwareSecrets,
    id: firmwareSecrets.id,
    allowed: firmwareSecretList,
    fields: {
      firmwareId: { column: firmwareSecrets.firmwareId, kind: "text" },
      label: { column: firmwareSecrets.label, kind: "text" },
      updatedAt: { column: firmwareSecrets.updatedAt, kind: "timestamp" },
    },
    search: sql`(${firmwareSecrets.firmwareId} || ' ' || ${firmwareSecrets.label})`,
    defaultSort: [{ field: "firmwareId", order: "asc" }],
  };

  app.get(
    `${PASSWORDS}`,
    { config: { ...admin, list: secretListSpec }, schema: { response: { 200: firmwareSecretPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, secretListSpec);
      const page = await runList(ctx.db, secretListSpec, query, (parts) => firmwareSecretPage(ctx.db, parts));
      return { ...page, data: page.data.map(mask) };
    },
  );

  app.put(
    `${PASSWORDS}`,
    {
      config: admin,
      schema: {
        body: firmwareSecretInputSchema,
        response: { 200: firmwareSecretRowSchema, 201: firmwareSecretRowSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      try {
        const row = await saveFirmwareSecret(ctx.db, ctx.secrets, actorFrom(request), input);
        return reply.status(input.id ? 200 : 201).send(mask(row));
      } catch (error) {
        uniqueConflict(error, {
          firmware_secrets_firmware_label_key: {
            field: "label",
            message: "this firmware already has a password with this label",
          },
        });
      }
    },
  );

  // The same row with the secret in clear text.
  app.post(
    `${PASSWORDS}/:id/reveal`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareSecretRowSchema } } },
    async (request) => {
      const { id } = request.params;
      const caller = callerOf(request);
      const row = await revealFirmwareSecret(ctx.db, actorFrom(request), id, caller.uid);
      request.log.info({ secretId: id, firmwareId: row.firmwareId, by: caller.uid }, "stored password revealed");
      return { ...mask(row), secret: ctx.secrets.open(row.secret) };
    },
  );

  app.delete(`${PASSWORDS}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    await deleteFirmwareSecret(ctx.db, actorFrom(request), id);
    return reply.status(204).send();
  });
}
