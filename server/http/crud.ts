/**
 * The routes of a catalogue-style resource, declared once: a list (query),
 * one record by id, PUT to create (no id) or update (id), and DELETE that
 * answers 409 naming whatever still refers to the record. Writes run in one
 * transaction with the resource's own checks (`prepare`), so a refused
 * request changes nothing.
 */
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { listResponseSchema } from "../../contracts/list-response";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import { conflict, type HttpError, notFound } from "../errors";
import { actorFrom, writeAudit } from "../services/audit";
import type { Referrer } from "../services/firmware-support/references";
import type { VerifiedCaller } from "../services/identity";
import { type ListSpec, listQueryOf, runList } from "./list";
import type { ZodTypeProvider } from "./zod";

export type { Referrer };

export const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });

export interface CrudResource<Input extends { id?: string }, Row, Stored extends Record<string, unknown>> {
  /** Singular label for messages: "Supported vehicle". */
  label: string;
  /** PUT here; GET here too unless `listPath` differs. */
  path: string;
  listPath?: string;
  /** GET/DELETE `${itemPath}/:id`; defaults to `path`. */
  itemPath?: string;
  /** The stored rows' type comes with the table, so that `toApi` and `referrers` read typed columns. */
  table: PgTable & { $inferSelect: Stored };
  idColumn: PgColumn;
  list: ListSpec;
  /** The PUT body; handlers see its parsed output (defaults applied), typed as `Input`. */
  input: z.ZodType<Input>;
  /**
   * What `toApi` answers, from contracts/: the list's rows, GET and PUT are checked against it
   * outside production, so a stored column the contract does not name fails a test.
   */
  output: z.ZodType<Row>;
  /** Database checks and the column values to write; throws HttpError to refuse. */
  prepare: (tx: Tx, input: Input, existingId: string | undefined) => Promise<Record<string, unknown>>;
  /** Shapes a stored row for the API. */
  toApi: (row: Stored) => Row;
  referrers?: (tx: Tx, row: Stored) => Promise<Referrer[]>;
  /** Unique constraints named for a 409 on the field they protect. */
  unique?: Record<string, { field: string; message: string }>;
}

interface PgError {
  code?: string;
  constraint?: string;
  cause?: PgError;
}

/** Turns a unique violation into a 409 on the field, when the resource names the constraint. */
export function uniqueConflict(error: unknown, unique: CrudResource<never, unknown, never>["unique"] = {}): never {
  const cause = (error as PgError).cause ?? (error as PgError);
  if (cause.code === "23505" && cause.constraint && unique[cause.constraint]) {
    const { field, message } = unique[cause.constraint];
    throw conflict(message, [{ path: field, message }]);
  }
  throw error;
}

export function referencedConflict(label: string, referrers: Referrer[]): HttpError {
  const names = referrers.slice(0, 5).map((r) => `${r.resource} "${r.label}"`);
  const more = referrers.length > 5 ? ` and ${referrers.length - 5} more` : "";
  return conflict(`${label} is still used by ${names.join(", ")}${more}; remove those references first`, referrers);
}

/**
 * A resource's PUT (create without an id, 201; update with one, 200), which its own file declares:
 *
 *   app.put(put.path, put.options, put.handler);
 *
 * Fastify gives a handler its body's type through a conditional type (`[T] extends [undefined] ?
 * unknown : T`) that TypeScript cannot resolve while `Input` is registerCrud's type parameter, so
 * declared in registerCrud the body would be typed `unknown`. Declared where the resource's schema
 * is concrete, the body comes out as exactly `Input`, the schema's parse output, with no cast.
 */
export interface CrudPut<Input, Row> {
  path: string;
  options: {
    config: { role: "admin" };
    schema: { body: z.ZodType<Input>; response: { 200: z.ZodType<Row>; 201: z.ZodType<Row> } };
  };
  handler: <Sent>(
    request: { body: Input; caller: VerifiedCaller | null; id: string },
    reply: { status(code: 200 | 201): { send(record: Row): Sent } },
  ) => Promise<Sent>;
}

/**
 * Declares the list, GET and DELETE routes of the resource and answers its PUT, for the caller to
 * declare (see CrudPut).
 */
export function registerCrud<Input extends { id?: string }, Row, Stored extends Record<string, unknown>>(
  plugin: FastifyInstance,
  ctx: AppContext,
  resource: CrudResource<Input, Row, Stored>,
): CrudPut<Input, Row> {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const admin = { role: "admin" as const };
  const itemPath = `${resource.itemPath ?? resource.path}/:id`;
  const byId = (id: string) => eq(resource.idColumn, id);
  // The table is generic here, so drizzle types its rows loosely; they are the table's own rows.
  const stored = (row: unknown) => row as Stored;
  // The audit names the record's kind as the API does ("Supported vehicle" → "supported-vehicle").
  const targetType = resource.label.toLowerCase().replace(/[^a-z0-9]+/g, "-");

  app.get(
    resource.listPath ?? resource.path,
    { config: { ...admin, list: resource.list }, schema: { response: { 200: listResponseSchema(resource.output) } } },
    async (request) => {
      const query = listQueryOf(request, resource.list);
      const page = await runList(ctx.db, resource.list, query, ({ where, orderBy, limit, offset }) =>
        ctx.db
          .select()
          .from(resource.table)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      return { ...page, data: page.data.map((row) => resource.toApi(stored(row))) };
    },
  );

  app.get(
    itemPath,
    { config: admin, schema: { params: idParams, response: { 200: resource.output } } },
    async (request) => {
      const { id } = request.params;
      const [row] = await ctx.db.select().from(resource.table).where(byId(id));
      if (!row) throw notFound(`${resource.label} ${id}`);
      return resource.toApi(stored(row));
    },
  );

  app.delete(itemPath, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    await ctx.db.transaction(async (tx) => {
      // Locked first: a writer adding a reference waits for us, or we see its reference.
      const [row] = await tx.select().from(resource.table).where(byId(id)).for("update");
      if (!row) throw notFound(`${resource.label} ${id}`);
      const referrers = (await resource.referrers?.(tx, stored(row))) ?? [];
      if (referrers.length) throw referencedConflict(`${resource.label} "${labelOf(row)}"`, referrers);
      await tx.delete(resource.table).where(byId(id));
      await writeAudit(tx, actorFrom(request), {
        action: `${targetType}.deleted`,
        targetType,
        targetId: id,
        before: resource.toApi(stored(row)),
      });
    });
    return reply.status(204).send();
  });

  return crudPut(ctx, resource, { byId, stored, targetType });
}

interface CrudHelpers<Stored> {
  byId: (id: string) => ReturnType<typeof eq>;
  stored: (row: unknown) => Stored;
  targetType: string;
}

/** The resource's PUT: creates (no id, 201) or updates (id, 200) in one transaction, audited. */
function crudPut<Input extends { id?: string }, Row, Stored extends Record<string, unknown>>(
  ctx: AppContext,
  resource: CrudResource<Input, Row, Stored>,
  { byId, stored, targetType }: CrudHelpers<Stored>,
): CrudPut<Input, Row> {
  const admin = { role: "admin" as const };
  return {
    path: resource.path,
    options: {
      config: admin,
      schema: { body: resource.input, response: { 200: resource.output, 201: resource.output } },
    },
    async handler(request, reply) {
      const input = request.body;
      try {
        const row = await ctx.db.transaction(async (tx) => {
          let before: Row | null = null;
          if (input.id) {
            const [existing] = await tx.select().from(resource.table).where(byId(input.id)).for("update");
            if (!existing) throw notFound(`${resource.label} ${input.id}`);
            before = resource.toApi(stored(existing));
          }
          const values = await resource.prepare(tx, input, input.id);
          const [written] = input.id
            ? await tx
                .update(resource.table)
                .set({ ...values, updatedAt: new Date() })
                .where(byId(input.id))
                .returning()
            : await tx.insert(resource.table).values(values).returning();
          const after = resource.toApi(stored(written));
          const targetId = String((written as { id: unknown }).id);
          await writeAudit(tx, actorFrom(request), {
            action: `${targetType}.${input.id ? "updated" : "created"}`,
            targetType,
            targetId,
            before,
            after,
          });
          return written;
        });
        return reply.status(input.id ? 200 : 201).send(resource.toApi(stored(row)));
      } catch (error) {
        uniqueConflict(error, resource.unique);
      }
    },
  };
}

const labelOf = (row: Record<string, unknown>) => String(row.name ?? row.firmwareId ?? row.id);
