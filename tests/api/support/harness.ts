import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import type { Role } from "../../../contracts/account";
import { buildApp } from "../../../server/app";
import { loadConfig } from "../../../server/config";
import { openDatabase } from "../../../server/db/connection";
import { createPostgresDatabase, migratedPgliteDataDir } from "./test-databases";

export type DatabaseKind = "pglite" | "postgres";
/**
 * The API suites run on PostgreSQL, the database of production. Those whose behaviour depends on the
 * engine run on PGlite too, the default of `npm start`: migrations and the foundation, the job queue,
 * transactions and locks (money, concurrent vehicle writes), uploads and their blobs, and the demo
 * seed; the list fuzz test shares its values between the two. docs/develop/testing.md says why each
 * is there.
 */
export const apiDatabases = ["postgres"] as const satisfies readonly DatabaseKind[];
export const bothDatabases = ["pglite", "postgres"] as const satisfies readonly DatabaseKind[];

export interface TestApp {
  app: FastifyInstance;
  kind: DatabaseKind;
  /** PostgreSQL only: its database, for a second instance on the same one (`startTestApp`'s `sharing`). */
  databaseUrl?: string;
  emulatorHost: string;
  projectId: string;
  close(): Promise<void>;
}

/**
 * The real server (buildApp) on a fresh database of the given kind, with identity from the Auth
 * emulator. Routes may still be added by the test before the first inject. With `sharing`, a
 * second instance on that app's PostgreSQL database (its own data folder), as production runs
 * several; the database is dropped by the app that made it.
 */
export async function startTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  { sharing }: { sharing?: TestApp } = {},
): Promise<TestApp> {
  const emulatorHost = inject("emulatorHost");
  const projectId = inject("projectId");
  if (sharing && !sharing.databaseUrl) throw new Error("only an app on PostgreSQL can share its database");
  const postgres = sharing?.databaseUrl
    ? { url: sharing.databaseUrl, drop: async () => {} }
    : kind === "postgres"
      ? await createPostgresDatabase(inject("postgresTemplate"))
      : null;
  const config = loadConfig({
    NODE_ENV: "test",
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_PROJECT_ID: projectId,
    DATA_DIR: `.test-data/api-${randomBytes(4).toString("hex")}`,
    DIST_DIR: ".test-data/no-dist",
    SMTP_URL: inject("smtpUrl"),
    ...(postgres && { DATABASE_URL: postgres.url }),
    ...env,
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: "memory://",
    ...(!postgres && { pgliteDataDir: await migratedPgliteDataDir(inject("pgliteDataDir")) }),
    transactionTimeoutMs: config.requestTimeoutMs,
  });
  await database.migrate();
  const app = await buildApp(config, { database, logger: false });
  return {
    app,
    kind,
    databaseUrl: postgres?.url,
    emulatorHost,
    projectId,
    async close() {
      await app.close();
      await database.close();
      await postgres?.drop();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** What a production-mode server needs besides NODE_ENV (server/config.ts refuses to start without it): mail to the suite's inbox. */
export const productionMailEnv = () => ({
  SMTP_URL: inject("smtpUrl"),
  MAIL_FROM: "Tuning Portal <no-reply@portal.example.test>",
  PUBLIC_URL: "https://portal.example.test",
});

export interface TestUser {
  uid: string;
  email: string;
  password: string;
  token: string;
}

const claimsFor = (role: Role) => (role === "customer" ? {} : { [role]: true });

/** Signs in through the emulator's REST API, as the web SDK would, and returns a fresh ID token. */
export async function signIn(emulatorHost: string, email: string, password: string): Promise<string> {
  const response = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`sign-in of ${email} failed: ${body.error?.message}`);
  return body.idToken;
}

/** A new identity user with the role's claims, signed in. */
export async function createUser(test: TestApp, role: Role, displayName = `Test ${role}`): Promise<TestUser> {
  const { auth } = test.app.ctx.identity;
  const email = `${role}-${randomBytes(5).toString("hex")}@example.test`;
  const password = "test-password-1";
  const record = await auth.createUser({ email, password, displayName, emailVerified: true });
  await auth.setCustomUserClaims(record.uid, claimsFor(role));
  return { uid: record.uid, email, password, token: await signIn(test.emulatorHost, email, password) };
}

/** A user to create: a role, or a role with a display name. */
export type UserSpec = Role | readonly [Role, string];

/** Several new users at once, in the order asked, each signed in (the opening of most API suites). */
export function createUsers<const Specs extends readonly UserSpec[]>(
  test: TestApp,
  specs: Specs,
): Promise<{ -readonly [K in keyof Specs]: TestUser }> {
  return Promise.all(
    specs.map((spec) => (typeof spec === "string" ? createUser(test, spec) : createUser(test, spec[0], spec[1]))),
  ) as Promise<{ -readonly [K in keyof Specs]: TestUser }>;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A JWT with no signature, as the emulator issues; claims chosen by the test. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
}

/**
 * The user's sessions moved back in time: their last revocation `seconds` ago and their token issued
 * half that ago. The identity service counts revocation in whole seconds, so a token issued in the
 * second of a revocation outlives it; a real session is older than the request that revokes it.
 */
export async function ageSessions(test: TestApp, user: TestUser, seconds = 10): Promise<TestUser> {
  const record = await test.app.ctx.identity.auth.getUser(user.uid);
  if (record.tokensValidAfterTime) {
    const since = Math.floor(new Date(record.tokensValidAfterTime).getTime() / 1000) - seconds;
    const response = await fetch(
      `http://${test.emulatorHost}/identitytoolkit.googleapis.com/v1/projects/${test.projectId}/accounts:update`,
      {
        method: "POST",
        // The emulator's admin credential: only an admin may set when sessions become valid.
        headers: { "content-type": "application/json", authorization: "Bearer owner" },
        body: JSON.stringify({ localId: user.uid, validSince: String(since) }),
      },
    );
    if (!response.ok) throw new Error(`moving ${user.email}'s revocation back failed: ${await response.text()}`);
  }
  const claims = JSON.parse(Buffer.from(user.token.split(".")[1], "base64url").toString()) as Record<string, number>;
  const earlier = Math.ceil(seconds / 2);
  return {
    ...user,
    token: unsignedToken({ ...claims, iat: claims.iat - earlier, auth_time: claims.auth_time - earlier }),
  };
}
