import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyHelmet from "@fastify/helmet";
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { type Database, openDatabase } from "./db/connection";
import { AnswerInsideTransactionError, insideTransaction } from "./db/transaction-guard";
import { HttpError, installErrorHandling } from "./errors";
import { installAuthentication } from "./http/auth";
import { earlyErrorHandlers, MAX_PARAM_LENGTH } from "./http/early-errors";
import { installListRegistry } from "./http/list";
import { type LogDestination, loggerOptions } from "./http/log-redaction";
import { checkMedia } from "./http/media";
import { installOpenApi } from "./http/openapi";
import { helmetOptions, securityHeaders } from "./http/security-headers";
import { serveSpa, webConfig } from "./http/static";
import { installZodValidation } from "./http/zod";
import { analyticsRoutes } from "./routes/analytics";
import { auditEventRoutes } from "./routes/audit-events";
import { authRoutes } from "./routes/auth";
import { bakedFileRoutes } from "./routes/baked-files";
import { dashboardRoutes } from "./routes/dashboard";
import { dataLogLayoutRoutes } from "./routes/data-log-layouts";
import { dataLogMarkerRoutes } from "./routes/data-log-markers";
import { dataLogShareRoutes } from "./routes/data-log-shares";
import { dataLogRoutes } from "./routes/data-logs";
import { dealerRoutes } from "./routes/dealers";
import { firmwareSupportRoutes } from "./routes/firmware-support";
import { flashAuthenticationRoutes } from "./routes/flash-authentication";
import { flashLogRoutes } from "./routes/flash-logs";
import { flashLogAdminRoutes } from "./routes/flash-logs/support";
import { formatRequestRoutes } from "./routes/format-requests";
import { healthRoutes } from "./routes/health";
import { imageProxyRoutes } from "./routes/image-proxy";
import { notificationRoutes } from "./routes/notifications";
import { openApiRoutes } from "./routes/openapi";
import { paymentRoutes } from "./routes/payments";
import { profileRoutes } from "./routes/profile";
import { profileChangeRequestRoutes } from "./routes/profile-change-requests";
import { publicSiteRoutes } from "./routes/public-site";
import { repositoryRoutes } from "./routes/repositories";
import { sessionRoutes } from "./routes/session";
import { statusRoutes } from "./routes/status";
import { stripeRoutes } from "./routes/stripe";
import { supportRequestRoutes } from "./routes/support-requests";
import { tuneFilePatchRoutes } from "./routes/tune-file-patches";
import { tuneFileRoutes } from "./routes/tune-files";
import { tuneViewerRoutes } from "./routes/tune-viewer";
import { tuningRequestRoutes } from "./routes/tuning-requests";
import { userVehicleRoutes } from "./routes/user-vehicles";
import { userRoutes } from "./routes/users";
import { vehicleBakeRoutes } from "./routes/vehicle-bakes";
import { defineBackgroundJobs } from "./services/background-jobs";
import { openBlobStores } from "./services/blob-stores";
import { CatalogueCache } from "./services/firmware-support/cache";
import { createIdentity, type Identity } from "./services/identity";
import { inProcessBus, type LiveEventBus, postgresBus } from "./services/live-events";
import { createMailService, emailNotifications } from "./services/mail";
import { NotificationCenter } from "./services/notifications";
import { sandboxProvider } from "./services/payments/sandbox";
import { stripeProvider } from "./services/payments/stripe";
import { JobQueue } from "./services/queue";
import { SecretBox } from "./services/secret-box";
import { Topics } from "./services/topics";
import { createUserMirror } from "./services/users";
import { VehicleEvents } from "./services/vehicle-events";

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
    /** Set once shutdown starts: responses then close their connection so close() can finish. */
    shuttingDown: boolean;
    /** Sends index.html in the coding the request accepts (server/http/static.ts). */
    spaIndex?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}

export interface BuildOptions {
  /** Reuse an open database (tests share one per suite). */
  database?: Database;
  identity?: Identity;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: LogDestination;
}

/**
 * The portal's address for emailed links: PUBLIC_URL, else (outside production) the address this
 * server listens on once listening (PORT=0 in the browser tests), else the configured port.
 */
function portalUrlOf(app: FastifyInstance, config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const address = app.server.address();
  const port = address && typeof address === "object" ? address.port : config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The services every route reaches through `app.ctx`, over the given or a newly opened database. */
async function createContext(app: FastifyInstance, config: Config, options: BuildOptions): Promise<AppContext> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, "pglite"),
      transactionTimeoutMs: config.requestTimeoutMs,
      onPoolError: (error) => app.log.warn({ err: error }, "idle database connection dropped"),
    }));
  const identity =
    options.identity ?? createIdentity({ projectId: config.projectId, emulatorHost: config.authEmulatorHost });
  // Uploads are received into it whichever store keeps the files, and the status page checks it.
  await mkdir(config.dataDir, { recursive: true });
  const secrets = await SecretBox.load({ keyBase64: config.secretsKey, dataDir: config.dataDir });
  const liveEvents = openLiveEvents(database, app.log);
  const stores = openBlobStores(config);
  app.addHook("onClose", async () => stores.close());
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    identity,
    blobs: stores.blobs,
    dataLogBlobs: stores.dataLogBlobs,
    users: createUserMirror(database.db),
    jobs: new JobQueue({
      database,
      databaseUrl: config.databaseUrl,
      log: app.log,
      schedules: config.queueSchedules,
      pollingIntervalSeconds: config.queuePollSeconds,
      maintenanceIntervalSeconds: config.queueMaintenanceSeconds,
    }),
    liveEvents,
    notifications: new NotificationCenter(database.db, liveEvents),
    mail: createMailService({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      portalUrl: () => portalUrlOf(app, config),
      log: app.log,
    }),
    catalogue: await CatalogueCache.open(database),
    secrets,
    vehicleEvents: new VehicleEvents(liveEvents),
    tuningRequestEvents: new Topics(liveEvents, "tuning-request"),
    accountEvents: new Topics(liveEvents, "account"),
    redis: config.redisUrl ? openRedis(config.redisUrl, app.log) : null,
    payments: config.stripeSecretKey
      ? stripeProvider({
          secretKey: config.stripeSecretKey,
          publishableKey: config.stripePublishableKey ?? null,
          webhookSecret: config.stripeWebhookSecret as string,
          apiUrl: config.stripeApiUrl,
        })
      : sandboxProvider(`whsec_sandbox_${secrets.sign("payment-sandbox-webhook", "v1")}`),
    startedAt: new Date(),
  };
  return ctx;
}

/** Several instances may share PostgreSQL, so events travel through it; PGlite has one process. */
function openLiveEvents(database: Database, log: FastifyBaseLogger): LiveEventBus {
  if (database.kind !== "postgres" || !database.url) return inProcessBus(log);
  return postgresBus({ url: database.url, log });
}

/**
 * Short waits: a limited request asks Redis once, and a Redis that does not answer must cost it
 * little (the limit is then skipped). An outage is logged when it starts and when it ends.
 */
function openRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, { connectTimeout: 1_000, commandTimeout: 500, maxRetriesPerRequest: 1 });
  let down = false;
  redis.on("error", (error) => {
    if (!down) log.warn({ err: error }, "redis unreachable: rate limits are not counted until it answers");
    down = true;
  });
  redis.on("ready", () => {
    if (down) log.info("redis answers again: rate limits are counted");
    down = false;
  });
  return redis;
}

/**
 * Headers on every answer: no caching and the request id on /api, `Connection: close` while shutting
 * down; and no answer leaves from inside a transaction.
 */
function installAnswerHeaders(app: FastifyInstance) {
  const refusedAnswers = new WeakSet<object>();
  app.addHook("onSend", async (request, reply) => {
    // An answer must not leave before its transaction commits (server/db/transaction-guard.ts, rule 3);
    // the error answer that replaces a refused one is itself sent from inside it, and goes out.
    if (insideTransaction() && !refusedAnswers.has(reply)) {
      refusedAnswers.add(reply);
      throw new AnswerInsideTransactionError();
    }
    if (request.url.startsWith("/api")) reply.header("Cache-Control", "no-store").header("X-Request-Id", request.id);
    if (app.shuttingDown) reply.header("Connection", "close");
  });
}

/** The /api/v1 resources, behind authentication. */
async function registerApi(api: FastifyInstance, ctx: AppContext) {
  installAuthentication(api, ctx.identity, ctx.users);
  await api.register(openApiRoutes);
  await api.register(healthRoutes, { ctx });
  await api.register(statusRoutes, { ctx });
  await api.register(authRoutes, { ctx });
  await api.register(publicSiteRoutes, { ctx });
  await api.register(profileRoutes, { ctx });
  await api.register(dealerRoutes, { ctx });
  await api.register(profileChangeRequestRoutes, { ctx });
  await api.register(stripeRoutes, { ctx });
  await api.register(paymentRoutes, { ctx });
  await api.register(repositoryRoutes, { ctx });
  await api.register(auditEventRoutes, { ctx });
  await api.register(userRoutes, { ctx });
  await api.register(dashboardRoutes, { ctx });
  await api.register(tuningRequestRoutes, { ctx });
  await api.register(dataLogRoutes, { ctx });
  await api.register(dataLogShareRoutes, { ctx });
  await api.register(dataLogMarkerRoutes, { ctx });
  await api.register(dataLogLayoutRoutes, { ctx });
  await api.register(formatRequestRoutes, { ctx });
  await api.register(firmwareSupportRoutes, { ctx });
  await api.register(supportRequestRoutes, { ctx });
  await api.register(tuneFileRoutes, { ctx });
  await api.register(tuneViewerRoutes, { ctx });
  await api.register(tuneFilePatchRoutes, { ctx });
  await api.register(userVehicleRoutes, { ctx });
  await api.register(vehicleBakeRoutes, { ctx });
  await api.register(bakedFileRoutes, { ctx });
  await api.register(flashAuthenticationRoutes, { ctx });
  await api.register(flashLogRoutes, { ctx });
  await api.register(flashLogAdminRoutes, { ctx });
  await api.register(analyticsRoutes, { ctx });
  await api.register(notificationRoutes, { ctx });
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const helmet = helmetOptions(config);
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    // A handler still working after the time-out answers 503 (request.signal is aborted); a
    // transaction it holds is rolled back by the database guard after the same time.
    handlerTimeout: config.requestTimeoutMs,
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Unique across restarts and instances (Fastify's default counts from req-1 again): the id the
    // logs, the audit trail and the answer's X-Request-Id header share.
    genReqId: () => randomUUID(),
    // Refusals before routing (414, 431, …) answer in our error shape with the same security headers.
    ...earlyErrorHandlers(securityHeaders(helmet)),
  });
  app.decorate("shuttingDown", false);

  const ctx = await createContext(app, config, options);
  const { database, identity } = ctx;
  app.decorate("ctx", ctx);
  defineBackgroundJobs(ctx);
  // The queue's workers and the live-event listener start once the app is ready (after main.ts
  // migrated the database).
  app.addHook("onReady", async () => {
    await ctx.liveEvents.start();
    await ctx.jobs.start();
  });
  // Copies of notifications go out after the change committed, without holding up its answer.
  ctx.notifications.onRecorded((recorded) => ctx.mail.inBackground(emailNotifications(ctx, recorded, app.log)));
  app.addHook("onClose", async () => {
    // Attempts in progress get a few seconds to finish; what is left is retried at the next start.
    const stopping = Date.now();
    await ctx.jobs.stop(5000);
    app.log.info({ ms: Date.now() - stopping }, "job queue stopped");
    await ctx.mail.idle();
    ctx.mail.close();
    await ctx.liveEvents.close();
    await ctx.redis?.quit().catch(() => ctx.redis?.disconnect());
    if (!options.database) await database.close();
    if (!options.identity) await identity.close();
  });

  installZodValidation(app, { checkResponses: config.mode !== "production" });
  if (config.mode !== "production") checkMedia(app);
  installListRegistry(app);
  installErrorHandling(app);
  await app.register(fastifyCookie);
  // Limits are set per upload by server/http/uploads.ts, which every upload route goes through.
  await app.register(fastifyMultipart, { limits: { fileSize: config.uploadLimitBytes } });
  await app.register(fastifyHelmet, helmet);
  installAnswerHeaders(app);
  await installOpenApi(app, config.version);

  await app.register(sessionRoutes, { prefix: "/api", ctx });
  await app.register(async (api) => registerApi(api, ctx), { prefix: "/api/v1" });

  app.get("/config.json", { config: { public: true } }, async (_request, reply) =>
    reply.header("Cache-Control", "no-cache").send(webConfig(config)),
  );

  await app.register(imageProxyRoutes, { ctx });
  const hasSpa = await serveSpa(app, config);
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0];
    // Client routes get index.html; a missing file (an old hashed asset) must 404, not turn into HTML.
    const wantsPage =
      request.method === "GET" && hasSpa && !pathname.startsWith("/api") && !/\.[a-z0-9]+$/i.test(pathname);
    if (wantsPage && app.spaIndex) {
      return app.spaIndex(request, reply);
    }
    throw new HttpError(404, "Not found", `No route ${request.method} ${pathname}`);
  });

  return app;
}
