import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { type IdentityEmulator, newEmail, PASSWORD, test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";

/**
 * The account stream end to end: an administrator's change through the real API (`PATCH /users/{id}`,
 * `POST /users/{id}/revoke-sessions`) reaches the user's open page through `GET /users/{id}/listen`,
 * which refreshes its token (new claims) or signs out at once, without a reload.
 */
const adminMenuItem = (page: Page) =>
  page.locator(".ant-layout-sider").getByRole("menuitem", { name: /^crown Administration$/ });

/** Resolves once the page's account stream is open: a change made before that would reach no one. */
const streamOpened = (page: Page) =>
  page.waitForResponse(
    (response) => /\/api\/v1\/users\/[^/]+\/notifications\/listen$/.test(response.url()) && response.status() === 200,
  );

async function asAdmin(
  request: APIRequestContext,
  token: string,
  method: "patch" | "post",
  path: string,
  data?: object,
) {
  const response = await request[method](`/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` }, data });
  expect(response.status(), await response.text()).toBe(method === "post" ? 204 : 200);
}

/** A new user signed in on `page`, once their stream is open; with an admin's token to change them. */
async function newUserSignedIn(page: Page, emulator: IdentityEmulator, label: string, name: string) {
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const email = newEmail(label);
  const uid = await emulator.createUser(email, PASSWORD, name);
  const login = new LoginPage(page);
  await login.open();
  const opened = streamOpened(page);
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await opened;
  // The dashboard drawn with its data: a call of the page's own answered 401 after the change would
  // sign it out too, and these tests are about the stream.
  await expect(page.getByTestId("dashboard-customer")).toBeVisible();
  await expect(page.getByTestId("account-role")).toBeVisible();
  return { adminToken, uid };
}

test("a user made admin gets the admin menu at once, without a reload; disabled, they are signed out with the reason", async ({
  page,
  request,
  emulator,
}) => {
  const { adminToken, uid } = await newUserSignedIn(page, emulator, "stream-user", "Sam Stream");
  await expect(page.getByTestId("account-role")).toHaveText("customer");
  await expect(adminMenuItem(page)).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  await asAdmin(request, adminToken, "patch", `users/${uid}`, { role: "admin", reason: "joins support" });
  await expect(page.getByText("Your role is now admin: joins support").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("account-role")).toHaveText("admin");
  await expect(adminMenuItem(page)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), "no reload").toBe(
    true,
  );

  await asAdmin(request, adminToken, "patch", `users/${uid}`, { disabled: true, reason: "left the company" });
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.getByTestId("sign-out-notice")).toContainText("Your account was disabled: left the company");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("signed out everywhere by an administrator, the open page goes to sign-in and says so", async ({
  page,
  request,
  emulator,
}) => {
  const { adminToken, uid } = await newUserSignedIn(page, emulator, "stream-revoked", "Rae Revoked");

  await asAdmin(request, adminToken, "post", `users/${uid}/revoke-sessions`);
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.getByTestId("sign-out-notice")).toContainText("An administrator signed you out on every device");
});

test("an account event sent before the account stream's own code has loaded still signs the page out", async ({
  page,
  request,
  emulator,
}) => {
  // The bell opens the tab's stream with the frame; the account stream's listener is a chunk of its
  // own. Held back here until the administrator's change has been sent down the stream.
  let releaseListener = () => {};
  const listenerHeld = new Promise<void>((resolve) => (releaseListener = resolve));
  let listenerRequests = 0;
  await page.route(/\/assets\/account-stream-listener-[^/]*\.js$/, async (route) => {
    listenerRequests += 1;
    await listenerHeld;
    await route.continue();
  });
  const { adminToken, uid } = await newUserSignedIn(page, emulator, "stream-early", "Eli Early");
  expect(listenerRequests, "the listener's code was asked for and held").toBeGreaterThan(0);

  await asAdmin(request, adminToken, "post", `users/${uid}/revoke-sessions`);
  // The event is on the stream once the change has answered; give the page a moment to receive it.
  await page.waitForTimeout(500);
  await expect(page, "nothing acts on it before the listener's code is in").toHaveURL(/\/dashboard$/);
  releaseListener();
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.getByTestId("sign-out-notice")).toContainText("An administrator signed you out on every device");
});
