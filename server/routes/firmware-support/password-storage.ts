/**
 * Password storage: the security-access passwords per firmware, sealed at
 * rest, masked in lists, revealed one at a time and logged.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type FirmwareSecretRow,
  firmwareSecretInputSchema,
  firmwareSecretList,
  firmwareSecretPageSchema,
  firmwareSecretRowSchema,
} from "../../../contracts/catalogue";
import type { AppContext } from "../../context";
import { firmwareSecrets, secretReveals } from "../../db/schema";
import { notFound } from "../../errors";
import { callerOf } from "../../http/auth";
import { idParams, uniqueConflict } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { actorFrom, writeAudit } from "../../services/audit";
import { lockFirmwareIds } from "../../services/catalogue";
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
  // What the trail keeps of a stored password: never the secret, only whether it changed.
  const audited = (row: typeof firmwareSecrets.$inferSelect) => ({
    firmwareId: row.firmwareId,
    label: row.label,
    securityLevel: row.securityLevel,
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
      const page = await runList(ctx.db, secretListSpec, query, ({ where, orderBy, limit, offset }) =>
        ctx.db
          .select()
          .from(firmwareSecrets)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
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
        const row = await ctx.db.transaction(async (tx) => {
          await lockFirmwareIds(tx, [input.firmwareId], "firmwareId");
          const { id, ...plain } = input;
          const values = { ...plain, secret: ctx.secrets.seal(plain.secret) };
          if (id) {
            const [current] = await tx.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, id)).for("update");
            if (!current) throw notFound(`Stored password ${id}`);
            const [updated] = await tx
              .update(firmwareSecrets)
              .set({ ...values, updatedAt: new Date() })
              .where(eq(firmwareSecrets.id, id))
              .returning();
            const secretChanged = ctx.secrets.open(current.secret) !== plain.secret;
            await writeAudit(tx, actorFrom(request), {
              action: "stored-password.updated",
              targetType: "stored-password",
              targetId: id,
              before: audited(current),
              after: { ...audited(updated), secretChanged },
            });
            return updated;
          }
          const [created] = await tx.insert(firmwareSecrets).values(values).returning();
          await writeAudit(tx, actorFrom(request), {
            action: "stored-password.created",
            targetType: "stored-password",
            targetId: created.id,
            after: audited(created),
          });
          return created;
        });
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
      const row = await ctx.db.transaction(async (tx) => {
        const [secret] = await tx.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, id));
        if (!secret) throw notFound(`Stored password ${id}`);
        await tx.insert(secretReveals).values({ secretId: id, revealedBy: caller.uid });
        // That it was read, by whom and when; the value itself never reaches the trail.
        await writeAudit(tx, actorFrom(request), {
          action: "stored-password.revealed",
          targetType: "stored-password",
          targetId: id,
          after: audited(secret),
        });
        return secret;
      });
      request.log.info({ secretId: id, firmwareId: row.firmwareId, by: caller.uid }, "stored password revealed");
      return { ...mask(row), secret: ctx.secrets.open(row.secret) };
    },
  );

  app.delete(`${PASSWORDS}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    await ctx.db.transaction(async (tx) => {
      const [deleted] = await tx.delete(firmwareSecrets).where(eq(firmwareSecrets.id, id)).returning();
      if (!deleted) throw notFound(`Stored password ${id}`);
      await writeAudit(tx, actorFrom(request), {
        action: "stored-password.deleted",
        targetType: "stored-password",
        targetId: id,
        before: audited(deleted),
      });
    });
    return reply.status(204).send();
  });
}
