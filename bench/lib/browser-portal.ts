/**
 * The whole portal for a browser bench: the production build of the app
 * (built when stale), a private Auth emulator, the real server on PGlite in
 * its own `.test-data/bench-*` folder, and Debian's Chromium; plus users with
 * fresh ID tokens. `close()` takes all of it down and removes the folder.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { buildSpa, spaIsStale } from "../../scripts/lib/build";
import { ensureChromium } from "../../scripts/lib/chromium";
import { startTestEmulator } from "../../scripts/lib/emulator";
import { TEST_PROJECT_ID } from "../../scripts/lib/ports";
import { buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db/connection";

export interface BenchUser {
  email: string;
  password: string;
  headers: { authorization: string };
}

export interface BenchPortal {
  origin: string;
  app: FastifyInstance;
  browser: Browser;
  /** A new verified user, with the role's claim when one is named. */
  user(role?: "admin" | "dealer"): Promise<BenchUser>;
  close(): Promise<void>;
}

/** `distDir`: serve that build (another commit's, to compare) instead of building `dist/` when stale. */
export async function startBrowserPortal(
  options: { chromiumArgs?: string[]; distDir?: string } = {},
): Promise<BenchPortal> {
  if (!options.distDir && spaIsStale()) {
    console.log("Building the web app…");
    buildSpa();
  }
  const workDir = path.resolve(`.test-data/bench-${randomBytes(4).toString("hex")}`);
  const emulator = await startTestEmulator(path.join(workDir, "auth-emulator"), 10);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: workDir,
    ...(options.distDir && { DIST_DIR: path.resolve(options.distDir) }),
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
    LOG_LEVEL: "warn",
  });
  const database = await openDatabase({ pgliteDir: path.join(workDir, "pglite") });
  await database.migrate();
  const app = await buildApp(config, { database, logger: false });
  const origin = await app.listen({ host: "127.0.0.1", port: 0 });
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", ...(options.chromiumArgs ?? [])],
  });

  async function user(role?: "admin" | "dealer"): Promise<BenchUser> {
    const email = `bench-${role ?? "customer"}-${randomBytes(4).toString("hex")}@example.test`;
    const password = "bench-password-1";
    const record = await app.ctx.identity.auth.createUser({
      email,
      password,
      emailVerified: true,
      displayName: `Bench ${role ?? "customer"}`,
    });
    if (role) await app.ctx.identity.auth.setCustomUserClaims(record.uid, { [role]: true });
    const signIn = await fetch(
      `http://${emulator.host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password, returnSecureToken: true }),
      },
    );
    const { idToken } = (await signIn.json()) as { idToken: string };
    return { email, password, headers: { authorization: `Bearer ${idToken}` } };
  }

  return {
    origin,
    app,
    browser,
    user,
    async close() {
      await browser.close();
      await app.close();
      await database.close();
      await emulator.stop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** The log the browser benches open: a real ECUMaster export (see the fixtures' README). */
export const BENCH_LOG_FIXTURE = path.resolve("../shared/fixtures/logs/ecumaster.csv");

/** Uploads a log file as `user` and answers its id. */
export async function uploadLog(portal: BenchPortal, user: BenchUser, file = BENCH_LOG_FIXTURE): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([readFileSync(file)]), path.basename(file));
  const uploaded = await fetch(`${portal.origin}/api/v1/data-logs`, {
    method: "POST",
    body: form,
    headers: user.headers,
  });
  if (uploaded.status !== 201) throw new Error(`log upload answered ${uploaded.status}: ${await uploaded.text()}`);
  return ((await uploaded.json()) as { id: string }).id;
}

/** The page a bench opens: `log` stands for a log `user` uploads first, any other value is a path. */
export async function benchPath(portal: BenchPortal, user: BenchUser | undefined, path: string): Promise<string> {
  if (path !== "log") return path;
  if (!user) throw new Error("--path log needs a signed-in user, whose log it opens");
  return `/tuning-tools/data-logs/${await uploadLog(portal, user)}`;
}

/**
 * A phone's tab (412 × 823, as Lighthouse's mobile profile) on the portal, signed in through the
 * sign-in page as a new customer unless `signedIn` is false.
 */
export async function phonePage(
  portal: BenchPortal,
  signedIn = true,
): Promise<{ context: BrowserContext; page: Page; user?: BenchUser }> {
  const context = await portal.browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  if (signedIn) {
    const user = await portal.user();
    await signInPage(page, portal.origin, user);
    return { context, page, user };
  }
  return { context, page };
}

/** Signs `user` in through the login page, as a person does, and waits for the dashboard. */
export async function signInPage(page: Page, origin: string, { email, password }: BenchUser): Promise<void> {
  await page.goto(`${origin}/login`);
  // By label: the page's snapshot, hidden from assistive technology, holds the same inputs until the app takes over.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.locator("form").getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard", { timeout: 30_000 });
}
