/**
 * The options every route plugin with rate limits registers @fastify/rate-limit with: counted in
 * Redis when REDIS_URL is set, so that every instance behind the proxy shares one count per
 * address; in this process's memory otherwise. A Redis that does not answer lets requests through
 * rather than refusing everyone (the client logs the outage once, server/app.ts).
 */
import type { RateLimitPluginOptions } from "@fastify/rate-limit";
import type { AppContext } from "../context";

export function rateLimitOptions(ctx: AppContext): RateLimitPluginOptions {
  if (!ctx.redis) return { global: false };
  return {
    global: false,
    redis: ctx.redis,
    nameSpace: `${ctx.config.redisKeyPrefix}rate-limit:`,
    skipOnError: true,
  };
}
