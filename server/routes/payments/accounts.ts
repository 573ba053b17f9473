/** A user's money: a dealer's payout account (state, onboarding, the sandbox's page) and the ledger of movements. */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  connectedAccountStateSchema,
  ledgerAdjustmentSchema,
  ledgerEntrySchema,
  ledgerList,
  ledgerPageSchema,
  onboardingSchema,
} from "../../../contracts/payments";
import type { AppContext } from "../../context";
import { ledgerEntries } from "../../db/schema";
import { forbidden } from "../../errors";
import { assertSelfOrAdmin, callerOf } from "../../http/auth";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { bytesAnswer } from "../../http/media";
import type { ZodTypeProvider } from "../../http/zod";
import { accountOf, accountToApi, completeSandboxOnboarding, startOnboarding } from "../../services/payments/accounts";
import { adjustBalance, ledgerCsvOf, ledgerPageOf } from "../../services/payments/ledger";

const ledgerSpec: ListSpec = {
  table: ledgerEntries,
  id: ledgerEntries.id,
  allowed: ledgerList,
  fields: {
    kind: { column: ledgerEntries.kind, kind: "text" },
    currency: { column: ledgerEntries.currency, kind: "text" },
    orderId: { column: ledgerEntries.orderId, kind: "uuid" },
    createdAt: { column: ledgerEntries.createdAt, kind: "timestamp" },
  },
  search: sql`${ledgerEntries.description}`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

const userParams = z.strictObject({ id: z.string().min(1).max(128) });

/** A dealer's payout account: its state, starting onboarding, and the sandbox's onboarding page. */
export function registerAccountRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { schema: { params: userParams, response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const row = await accountOf(ctx.db, request.params.id);
      return { account: row ? accountToApi(row) : null };
    },
  );

  app.post(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { config: { role: "dealer" }, schema: { params: userParams, response: { 200: onboardingSchema } } },
    async (request) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id) throw forbidden("A dealer sets up their own payout account");
      return startOnboarding(ctx, caller, `${request.protocol}://${request.host}/my-tunes`);
    },
  );

  app.post(
    "/payments/sandbox/onboard",
    { config: { role: "dealer" }, schema: { response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      const after = await completeSandboxOnboarding(ctx, callerOf(request).uid);
      return { account: after ? accountToApi(after) : null };
    },
  );
}

/** A user's money movements: pages with balances, an admin's adjustment, and the CSV export. */
export function registerLedgerRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.users.transactions(":id")}`,
    { config: { list: ledgerSpec }, schema: { params: userParams, response: { 200: ledgerPageSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return ledgerPageOf(ctx, request.params.id, (select, scope) =>
        runList(ctx.db, ledgerSpec, listQueryOf(request, ledgerSpec), select, scope),
      );
    },
  );

  /**
   * An admin adjusts a user's balance (a goodwill credit, a correction): one ledger row with the
   * reason the user reads and who made it; the user is told. Money at the provider is not moved:
   * this records what support agreed, as the file-service portals' credit adjustments do.
   */
  app.post(
    `/${apiRoutes.users.transactions(":id")}`,
    {
      config: { role: "admin" as const },
      schema: { params: userParams, body: ledgerAdjustmentSchema, response: { 201: ledgerEntrySchema } },
    },
    async (request, reply) => {
      const entry = await adjustBalance(
        ctx,
        { caller: callerOf(request), id: request.id },
        request.params.id,
        request.body,
      );
      return reply.status(201).send(entry);
    },
  );

  /** The same movements as CSV, oldest first, for a spreadsheet or an accountant. */
  const csvAnswer = { media: bytesAnswer({ types: ["text/csv"] }) };
  app.get(
    `/${apiRoutes.users.transactionsCsv(":id")}`,
    { config: csvAnswer, schema: { params: userParams } },
    async (request, reply) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const csv = await ledgerCsvOf(ctx, request.params.id);
      return (
        reply
          .header("content-type", "text/csv; charset=utf-8")
          // The id is any text an admin typed: only what a header and a file name can hold.
          .header(
            "content-disposition",
            `attachment; filename="transactions-${request.params.id.replace(/[^A-Za-z0-9._-]/g, "_")}.csv"`,
          )
          .send(csv)
      );
    },
  );
}
