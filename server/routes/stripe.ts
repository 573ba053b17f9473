/**
 * `POST /stripe/on-event`: the payment provider's webhook (Stripe, or the local sandbox, which
 * signs the same way). The signature is checked on the raw body with Stripe's own code before
 * anything is read; an unsigned, forged or stale event, an event type we do not act on, or one
 * that does not match its order is refused with 400 and nothing stored. A redelivered event
 * answers 200 and changes nothing.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context";
import { badRequest } from "../errors";
import type { ZodTypeProvider } from "../http/zod";
import { applyAccountEvent } from "../services/payments/accounts";
import { applyEvent, effectOf } from "../services/payments/orders";

export const STRIPE_EVENTS_PATH = "/stripe/on-event";
const eventAnswerSchema = z.strictObject({
  received: z.literal(true),
  outcome: z.enum(["applied", "duplicate", "ignored"]),
});

export async function stripeRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  // The signature covers the exact bytes sent: keep them, parse nothing before checking it.
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 256 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    STRIPE_EVENTS_PATH,
    { config: { public: true }, schema: { response: { 200: eventAnswerSchema } } },
    async (request) => {
      const signature = request.headers["stripe-signature"];
      if (typeof signature !== "string" || !Buffer.isBuffer(request.body))
        throw badRequest("Unsigned event", "send the event as JSON with its Stripe-Signature header");
      let event: { id: string; type: string; data: { object: Record<string, unknown> } };
      try {
        event = ctx.payments.webhooks.constructEvent(
          request.body,
          signature,
          ctx.payments.webhookSecret,
        ) as unknown as typeof event;
      } catch (error) {
        throw badRequest("Invalid signature", error instanceof Error ? error.message : "the signature does not verify");
      }
      if (event.type === "account.updated")
        return { received: true as const, outcome: await applyAccountEvent(ctx, event) };
      const effect = effectOf(event);
      if (!effect) throw badRequest("Unhandled event", `events of type ${event.type} are not acted on`);
      const applied = await applyEvent(ctx, event, effect);
      const order = applied.outcome === "applied" ? applied.order : null;
      if (order?.vehicleId)
        ctx.vehicleEvents.publish(order.vehicleId, {
          type: "order",
          order: { id: order.id, status: order.status, tuneFileId: order.tuneFileId },
        });
      // A custom tune's ticket moved with its order (paid, or closed by a refund): open tickets update.
      if (order?.tuningRequestId) ctx.tuningRequestEvents.publish(order.tuningRequestId, { type: "changed" });
      return { received: true as const, outcome: applied.outcome };
    },
  );
}
