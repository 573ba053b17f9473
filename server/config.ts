import { isIP } from "node:net";
import path from "node:path";

export type RunMode = "development" | "test" | "production";

export interface Config {
  mode: RunMode;
  host: string;
  port: number;
  /** Root of everything we persist locally: PGlite files, blobs (unless in a bucket), temp uploads, the emulator's export. */
  dataDir: string;
  /**
   * The files in this S3-compatible bucket when set (S3_BUCKET), under `blobs/` and
   * `data-logs/blobs/`; unset: on the local disk under dataDir. Needs both keys.
   */
  s3Bucket?: string;
  /** The storage's address (S3_ENDPOINT), addressed path-style; unset: AWS's own for the region. */
  s3Endpoint?: string;
  /** S3_REGION, "us-east-1" by default (what S3-compatible servers that ignore regions expect to be signed for). */
  s3Region: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  /** Unset: embedded PGlite under dataDir. Set: that PostgreSQL server. */
  databaseUrl?: string;
  /**
   * Redis (REDIS_URL, e.g. redis://127.0.0.1:6379): rate limits counted there, shared by every
   * instance. Unset: each instance counts its own.
   */
  redisUrl?: string;
  /** Prefix of every key the portal writes to Redis (REDIS_KEY_PREFIX), for portals sharing one. */
  redisKeyPrefix: string;
  projectId: string;
  /** host:port of the Firebase Auth emulator, or undefined for the real service. */
  authEmulatorHost?: string;
  /** Public Firebase web config the SPA reads from /config.json. */
  webApiKey: string;
  /** Base URL of the release backend the SPA uses when no offline backend answers. */
  releaseApiBaseUrl: string;
  /** Built SPA (vite build output); unset or missing means API only. */
  distDir?: string;
  version: string;
  bodyLimitBytes: number;
  /** Largest uploaded file (multipart); 413 above it. */
  uploadLimitBytes: number;
  /** Largest data log (multipart); 413 above it. Logs run long: an hour at 50 Hz × 200 channels. */
  logUploadLimitBytes: number;
  requestTimeoutMs: number;
  /** A running flash session with no report for this long is marked abandoned (FLASH_SESSION_SILENCE_MS). */
  flashSessionSilenceMs: number;
  logLevel: string;
  /** Key that seals stored passwords (base64, 32 bytes); unset: a key file in dataDir. */
  secretsKey?: string;
  /**
   * Addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For is believed
   * (TRUST_PROXY); empty: nobody's, request.ip is the connecting peer.
   */
  trustProxy: string[];
  /** Image proxy results kept on disk: at most this many bytes and files, least recently used out. */
  imageCacheMaxBytes: number;
  imageCacheMaxFiles: number;
  /** Stripe when set (STRIPE_SECRET_KEY); unset: the local sandbox provider. */
  stripeSecretKey?: string;
  stripePublishableKey?: string;
  /** The webhook's signing secret (STRIPE_WEBHOOK_SECRET): required with a Stripe key; the sandbox derives its own. */
  stripeWebhookSecret?: string;
  /** Another Stripe API address (STRIPE_API_URL): a local stub in tests. */
  stripeApiUrl?: string;
  /** The platform's share of each sale, in whole percent (PLATFORM_FEE_PERCENT). */
  platformFeePercent: number;
  /**
   * Where mail goes (SMTP_URL, nodemailer's URL form: smtp://user:pass@host:587, smtps://… for TLS).
   * Required in production; outside it, the local mail catcher that npm start and the tests run.
   */
  smtpUrl: string;
  /** The sender of every email (MAIL_FROM), e.g. `Tuning Portal <no-reply@example.com>`; required in production. */
  mailFrom: string;
  /**
   * The portal's address as users reach it (PUBLIC_URL), used in the links emails carry; required in
   * production. Unset elsewhere: the address this server listens on.
   */
  publicUrl?: string;
  /**
   * The job queue's cron schedules (blob collection, user reconciliation, auto-accept, due notices) run
   * (QUEUE_SCHEDULES=1/0); on by default, off in tests, where nothing should start by itself.
   */
  queueSchedules: boolean;
  /** How often an idle job worker asks the queue for work, in seconds (QUEUE_POLL_SECONDS, at least 0.5). */
  queuePollSeconds: number;
  /** How often the queue takes back attempts that ran too long, in seconds (QUEUE_MAINTENANCE_SECONDS). */
  queueMaintenanceSeconds: number;
}

/** The local mail catcher's SMTP port (scripts/lib/mail-catcher/), which npm start uses when free. */
export const LOCAL_MAIL_CATCHER_SMTP_PORT = 1025;

const DEFAULT_PROJECT_ID = "demo-tuning-portal";

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

/** proxy-addr's names for the private ranges, usable in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: a comma list of proxy addresses, CIDR ranges or range names. "true" is refused
 * (it believes X-Forwarded-For from any client that connects directly), and so is a hop count,
 * which Fastify now ignores (it cannot tell a proxy from a client that sent enough hops).
 */
export function trustedProxiesFrom(value: string | undefined): string[] {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const version = isIP(address);
    const validPrefix =
      prefix === undefined ||
      (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32)) ||
      (version === 4 && isIP(prefix) === 4);
    if (!(PROXY_RANGE_NAMES.has(entry) || (version !== 0 && validPrefix && extra === undefined))) {
      throw new Error(
        `TRUST_PROXY must list proxy addresses, CIDR ranges or ${[...PROXY_RANGE_NAMES].join("/")}, separated by commas; got "${entry}"`,
      );
    }
  }
  return entries;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const mode = (env.NODE_ENV === "production" || env.NODE_ENV === "test" ? env.NODE_ENV : "development") as RunMode;
  const config: Config = {
    mode,
    host: env.HOST ?? "127.0.0.1",
    port: intFrom(env.PORT, 8080, "PORT"),
    dataDir: path.resolve(env.DATA_DIR ?? ".data"),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    s3Bucket: env.S3_BUCKET || undefined,
    s3Endpoint: s3EndpointFrom(env.S3_ENDPOINT),
    s3Region: env.S3_REGION || "us-east-1",
    s3AccessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    s3SecretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? "portal:",
    projectId: env.FIREBASE_PROJECT_ID ?? env.GCLOUD_PROJECT ?? DEFAULT_PROJECT_ID,
    authEmulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST || undefined,
    webApiKey: env.FIREBASE_WEB_API_KEY ?? "demo-api-key",
    releaseApiBaseUrl: env.RELEASE_API_BASE_URL ?? "",
    distDir: path.resolve(env.DIST_DIR ?? "dist"),
    version: env.APP_VERSION ?? process.env.npm_package_version ?? "0.0.0",
    bodyLimitBytes: intFrom(env.BODY_LIMIT_BYTES, 1024 * 1024, "BODY_LIMIT_BYTES"),
    uploadLimitBytes: intFrom(env.UPLOAD_LIMIT_BYTES, 64 * 1024 * 1024, "UPLOAD_LIMIT_BYTES"),
    logUploadLimitBytes: intFrom(env.LOG_UPLOAD_LIMIT_BYTES, 256 * 1024 * 1024, "LOG_UPLOAD_LIMIT_BYTES"),
    requestTimeoutMs: intFrom(env.REQUEST_TIMEOUT_MS, 120_000, "REQUEST_TIMEOUT_MS"),
    flashSessionSilenceMs: intFrom(env.FLASH_SESSION_SILENCE_MS, 120_000, "FLASH_SESSION_SILENCE_MS"),
    logLevel: env.LOG_LEVEL ?? (mode === "test" ? "warn" : "info"),
    secretsKey: env.SECRETS_KEY || undefined,
    trustProxy: trustedProxiesFrom(env.TRUST_PROXY),
    imageCacheMaxBytes: intFrom(env.IMAGE_CACHE_MAX_BYTES, 256 * 1024 * 1024, "IMAGE_CACHE_MAX_BYTES"),
    imageCacheMaxFiles: intFrom(env.IMAGE_CACHE_MAX_FILES, 5000, "IMAGE_CACHE_MAX_FILES"),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    platformFeePercent: intFrom(env.PLATFORM_FEE_PERCENT, 10, "PLATFORM_FEE_PERCENT"),
    smtpUrl: env.SMTP_URL || (mode === "production" ? "" : `smtp://127.0.0.1:${LOCAL_MAIL_CATCHER_SMTP_PORT}`),
    mailFrom: env.MAIL_FROM || (mode === "production" ? "" : "Tuning Portal <no-reply@tuning-portal.localhost>"),
    publicUrl: publicUrlFrom(env.PUBLIC_URL),
    queueSchedules: env.QUEUE_SCHEDULES ? env.QUEUE_SCHEDULES === "1" : mode !== "test",
    queuePollSeconds: Math.max(0.5, Number(env.QUEUE_POLL_SECONDS ?? 2) || 2),
    queueMaintenanceSeconds: intFrom(env.QUEUE_MAINTENANCE_SECONDS, 60, "QUEUE_MAINTENANCE_SECONDS"),
    ...overrides,
  };
  assertSafeConfig(config);
  return config;
}

/** PUBLIC_URL: an http(s) origin, optionally with a path prefix; kept without its trailing slash. */
function publicUrlFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be the portal's address such as https://portal.example.com, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`PUBLIC_URL must be an http(s) address, got "${value}"`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** S3_ENDPOINT: an http(s) address such as http://127.0.0.1:4568, kept without its trailing slash. */
function s3EndpointFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new Error(`S3_ENDPOINT must be the storage's http(s) address such as http://127.0.0.1:4568, got "${value}"`);
  return value.replace(/\/+$/, "");
}

/** Object storage is all or nothing: a bucket needs its keys, and the other variables mean nothing without one. */
function assertStorageConfig(config: Config): void {
  if (config.s3Bucket) {
    const missing = [
      !config.s3AccessKeyId && "S3_ACCESS_KEY_ID",
      !config.s3SecretAccessKey && "S3_SECRET_ACCESS_KEY",
    ].filter(Boolean);
    if (missing.length > 0)
      throw new Error(
        `Refusing to start: S3_BUCKET is set without ${missing.join(" and ")}, so the bucket could not be used.`,
      );
    return;
  }
  const stray = [
    config.s3Endpoint && "S3_ENDPOINT",
    config.s3AccessKeyId && "S3_ACCESS_KEY_ID",
    config.s3SecretAccessKey && "S3_SECRET_ACCESS_KEY",
  ].filter(Boolean);
  if (stray.length > 0)
    throw new Error(
      `Refusing to start: ${stray.join(", ")} ${stray.length > 1 ? "are" : "is"} set without S3_BUCKET; set S3_BUCKET to keep the files in that bucket, or unset ${stray.length > 1 ? "them" : "it"} to keep them on disk.`,
    );
}

/** The emulator makes firebase-admin accept unsigned tokens, so it must never back a production server. */
export function assertSafeConfig(config: Config): void {
  assertStorageConfig(config);
  if (config.stripeSecretKey && !config.stripeWebhookSecret) {
    throw new Error(
      "Refusing to start: STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET, so no payment event could be verified.",
    );
  }
  if (config.platformFeePercent > 100)
    throw new Error(`PLATFORM_FEE_PERCENT must be 0 to 100, got ${config.platformFeePercent}`);
  if (config.mode === "production") {
    // Without these, every verification, reset and invitation email would fail (or carry a link to nowhere) at run time.
    const missing = [
      !config.smtpUrl && "SMTP_URL",
      !config.mailFrom && "MAIL_FROM",
      !config.publicUrl && "PUBLIC_URL",
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new Error(
        `Refusing to start: NODE_ENV=production needs ${missing.join(", ")} so that the portal's emails are really sent, from a real sender, with links to the portal (README, "Mail").`,
      );
    }
  }
  if (config.mode === "production" && config.authEmulatorHost) {
    throw new Error(
      "Refusing to start: FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production. The Auth emulator accepts unsigned tokens.",
    );
  }
}
