import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type DealerProfileSummary, dealerProfileSummarySchema, dealerRequestSchema } from "../../contracts/public-site";
import type { AppContext } from "../context";
import { dealerProfiles } from "../db/schema";
import { conflict } from "../errors";
import { callerOf } from "../http/auth";
import type { ZodTypeProvider } from "../http/zod";

const blankToNull = (value: string | undefined) => (value ? value : null);

/** A signed-in user asks to become a dealer: a pending profile that an admin approves (dealers issue). */
export async function dealerRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.post("/dealers", { schema: { body: dealerRequestSchema, response: { 201: dealerProfileSummarySchema } } }, async (request, reply) => {
    const caller = callerOf(request);
    const input = request.body;
    // One profile per user (unique user_uid): a second request, even a concurrent one, inserts nothing.
    const [created] = await ctx.db
      .insert(dealerProfiles)
      .values({
        userUid: caller.uid,
        businessName: input.businessName,
        address: input.address,
        registrationNumber: input.registrationNumber,
        vatNumber: blankToNull(input.vatNumber),
        website: blankToNull(input.website),
        phone: input.phone,
        status: "pending",
      })
      .onConflictDoNothing({ target: dealerProfiles.userUid })
      .returning({ id: dealerProfiles.id, businessName: dealerProfiles.businessName, status: dealerProfiles.status, createdAt: dealerProfiles.createdAt });
    if (!created) {
      const [existing] = await ctx.db
        .select({ businessName: dealerProfiles.businessName, status: dealerProfiles.status })
        .from(dealerProfiles)
        .where(eq(dealerProfiles.userUid, caller.uid));
      throw conflict(`You already have a dealer profile for ${existing?.businessName ?? "your business"} (${existing?.status ?? "pending"})`, [
        { path: "businessName", message: "One dealer profile per account" },
      ]);
    }
    const summary: DealerProfileSummary = { ...created, createdAt: created.createdAt.toISOString() };
    return reply.status(201).send(summary);
  });
}
