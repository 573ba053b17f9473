/**
 * npm run cluster: the portal as production runs it, on one machine. Two API instances on
 * PostgreSQL behind nginx on one port, rate limits in Redis, files in an S3-compatible bucket
 * (s3rver, scripts/lib/object-storage.ts), the Auth emulator and the inbox, with the demo data.
 * Each instance has a data folder of its own, as on machines of their own: nothing they share
 * goes through the disk. Ctrl-C stops it.
 *
 * Environment: DATABASE_URL (default: database portal_cluster on 127.0.0.1:5432, made when
 * missing), REDIS_URL (default redis://127.0.0.1:6379; without an answer, each instance counts its
 * own limits), PORT (the proxy's, default 8080), DATA_DIR (default .data/cluster).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { SecretBox } from "../server/services/secret-box";
import { demoAccountsBanner, runMain } from "./lib/banner";
import { buildSpa, spaIsStale } from "./lib/build";
import { localAuthEmulator } from "./lib/emulator";
import { waitForHealth } from "./lib/health";
import { startMailCatcher } from "./lib/mail-catcher";
import { startObjectStorage } from "./lib/object-storage";
import { freePort, START_MAIL_PORTS, START_OBJECT_STORAGE_PORT } from "./lib/ports";
import { startNginx } from "./lib/reverse-proxy";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./lib/server-process";
import { hasExited, waitForExit } from "./lib/supervise";

const dataDir = path.resolve(process.env.DATA_DIR ?? ".data/cluster");
const proxyPort = Number(process.env.PORT ?? 8080);
const instancePorts = [proxyPort + 1, proxyPort + 2];
const projectId = process.env.FIREBASE_PROJECT_ID ?? "demo-tuning-portal";
const LOG_UPLOAD_LIMIT_BYTES = 256 * 2 ** 20;

/** The cluster's database: DATABASE_URL, or portal_cluster on the local server, made when missing. */
async function clusterDatabase(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const server = "postgres://postgres@127.0.0.1:5432";
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = 'portal_cluster'");
    if (!rowCount) await admin.query("create database portal_cluster");
  } finally {
    await admin.end();
  }
  return `${server}/portal_cluster`;
}

/**
 * One key sealing stored passwords for every instance (SECRETS_KEY): the key file in the cluster's
 * folder, made on the first run (earlier runs, whose instances shared that folder, made it there).
 */
async function clusterSecretsKey(): Promise<string> {
  if (process.env.SECRETS_KEY) return process.env.SECRETS_KEY;
  await SecretBox.load({ dataDir });
  return (await readFile(path.join(dataDir, "secrets.key"), "utf8")).trim();
}

/** REDIS_URL or the local Redis, when it answers. */
async function clusterRedis(): Promise<string | null> {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch {
    console.log(`Redis does not answer at ${url}: each instance counts its own rate limits.`);
    return null;
  } finally {
    redis.disconnect();
  }
}

async function main() {
  if (spaIsStale()) {
    console.log("Building the web app…");
    buildSpa();
  }
  const [databaseUrl, redisUrl] = [await clusterDatabase(), await clusterRedis()];
  const { host: emulatorHost, emulator } = await localAuthEmulator(dataDir, projectId);
  const inbox = await startMailCatcher({
    smtpPort: await freePort(START_MAIL_PORTS.smtp),
    httpPort: await freePort(START_MAIL_PORTS.web),
  });
  const storage = await startObjectStorage({
    directory: path.join(dataDir, "object-storage"),
    port: await freePort(START_OBJECT_STORAGE_PORT),
  });
  const secretsKey = await clusterSecretsKey();

  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping…");
    for (const child of children) if (!hasExited(child)) child.kill("SIGTERM");
    await Promise.all(children.map(waitForExit));
    await emulator?.stop();
    await inbox.stop();
    await storage.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  const instance = (port: number, seed: boolean) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
      stdio: "inherit",
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: path.join(dataDir, `instance-${port}`),
        DATABASE_URL: databaseUrl,
        ...storage.env,
        SECRETS_KEY: secretsKey,
        ...(redisUrl && { REDIS_URL: redisUrl }),
        SMTP_URL: inbox.smtpUrl,
        PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        FIREBASE_PROJECT_ID: projectId,
        // The proxy's X-Forwarded-For is believed: rate limits count the visitor, not nginx.
        TRUST_PROXY: "127.0.0.1",
        LOG_UPLOAD_LIMIT_BYTES: String(LOG_UPLOAD_LIMIT_BYTES),
        ...(seed && { SEED_DEMO: "1" }),
      },
    });
    children.push(child);
    // An instance that dies is said, and the proxy sends its requests to the other: that is the point.
    child.once("exit", (code, signal) => {
      if (!stopping)
        console.log(`\nThe API instance on :${port} ${signal ? `was killed (${signal})` : `exited (${code})`}.`);
    });
    return child;
  };
  // The first seeds the demo data; the second starts once it has (and finds the migrations applied).
  const first = instance(instancePorts[0], true);
  await waitForHealth(`http://127.0.0.1:${instancePorts[0]}/api/v1/health`, first, "The first API instance");
  const second = instance(instancePorts[1], false);
  await waitForHealth(`http://127.0.0.1:${instancePorts[1]}/api/v1/health`, second, "The second API instance");

  const proxy = startNginx({
    listenPort: proxyPort,
    upstreams: instancePorts.map((port) => `127.0.0.1:${port}`),
    bodyLimitBytes: LOG_UPLOAD_LIMIT_BYTES,
    prefix: path.join(dataDir, "nginx"),
  });
  children.push(proxy);
  proxy.once("exit", (code) => {
    if (stopping) return;
    console.log(`\nnginx exited (${code}).`);
    void stop(code || 1);
  });
  await waitForHealth(`http://127.0.0.1:${proxyPort}/api/v1/health`, proxy, "nginx");

  console.log(`
  Tuning portal cluster is running
    Portal (nginx):  http://127.0.0.1:${proxyPort}
    API instances:   ${instancePorts.map((port) => `http://127.0.0.1:${port}`).join(", ")}
    Database:        ${databaseUrl.replace(/:[^:@/]+@/, ":••••@")}
    Rate limits:     ${redisUrl ? `Redis at ${redisUrl}` : "per instance"}
    Auth emulator:   http://${emulatorHost}
    Mail sent by the portal: ${inbox.webUrl}
    Files:           bucket ${storage.bucket} at ${storage.endpoint} (objects under ${path.join(dataDir, "object-storage")})
    Data folders:    ${instancePorts.map((port) => path.join(dataDir, `instance-${port}`)).join(", ")}
${demoAccountsBanner()}`);
}

runMain(main);
