import { expect, type Locator, test } from "@playwright/test";
import { demoUsers, LoginPage, Portal } from "./pages/login-page";
import { Shell } from "./pages/shell";

test("an unknown path shows a 404 in the layout of the part of the site it is under", async ({ page }) => {
  const shell = new Shell(page);
  await page.goto("/no/such/page");
  await expect(shell.errorStatus(404)).toBeVisible();
  await expect(shell.errorMessage()).toHaveText("Page not found: /no/such/page");
  await expect(shell.siteLink("FAQs")).toBeVisible();

  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/my-devices/1/photos");
  await expect(shell.errorMessage()).toHaveText("Page not found: /my-devices/1/photos");
  await expect(page.getByTestId("user-menu")).toBeVisible();
});

test("an id that cannot exist shows 404 Page Not Found instead of the page", async ({ page }) => {
  const shell = new Shell(page);
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/admin/users/${"x".repeat(129)}`);
  await expect(shell.errorStatus(404)).toBeVisible();
  await expect(shell.errorMessage()).toHaveText("Page Not Found");

  await page.goto("/tuning-tools/data-logs/not-a-log-id");
  await expect(shell.errorMessage()).toHaveText("Page Not Found");
});

test("a page whose code cannot be downloaded reloads once, then shows the error page with details; Go Home recovers", async ({
  page,
}) => {
  const shell = new Shell(page);
  // The FAQs page's chunk fails every time, as after a deployment that removed it.
  const faqsChunk = /\/assets\/faqs-[^/]+\.js$/;
  await page.route(faqsChunk, (route) => route.abort("failed"));
  let loads = 0;
  page.on("load", () => (loads += 1));

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Tune, flash and log your car with confidence" })).toBeVisible();
  await shell.siteLink("FAQs").click();

  await expect(shell.errorStatus(500)).toBeVisible();
  await expect(shell.errorMessage()).toHaveText("This page could not be loaded");
  expect(loads, "the first failure reloads the page once, the second shows the error").toBe(2);
  await expect(page).toHaveURL(/\/faqs$/);
  expect(await shell.errorDetails()).toEqual({ path: "/faqs", error: expect.stringContaining("faqs-") });

  await page.unroute(faqsChunk);
  await shell.goHome();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Tune, flash and log your car with confidence" })).toBeVisible();
});

test("dialogs close by Escape and by a click outside, and the sign-out confirmation refuses a click outside", async ({
  page,
}) => {
  const shell = new Shell(page);
  const portal = new Portal(page);
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);

  const shortcuts = shell.dialog("Keyboard shortcuts");
  await page.keyboard.press("?");
  await expect(shortcuts).toBeVisible();
  await expect(shortcuts.getByText("Move to the notifications")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(shortcuts).toBeHidden();

  await page.keyboard.press("?");
  await expect(shortcuts).toBeVisible();
  await shell.clickOutsideDialogs();
  await expect(shortcuts).toBeHidden();

  const confirmation = await portal.askToSignOut();
  await expect(confirmation).toBeVisible();
  await shell.clickOutsideDialogs();
  await page.waitForTimeout(500);
  await expect(confirmation, "an outside click must not dismiss the sign-out confirmation").toBeVisible();
  await confirmation.getByRole("button", { name: "Stay signed in" }).click();
  await expect(confirmation).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The side menu's sign-out asks the same question.
  const fromSider = await portal.askToSignOut("side menu");
  await expect(fromSider).toBeVisible();
  await fromSider.getByRole("button", { name: "Stay signed in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("when the system asks for less motion, menus and dialogs appear without animating", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  const runningAnimations = (locator: Locator) =>
    locator.evaluate((element) => element.getAnimations({ subtree: true }).length);

  await page.getByTestId("user-menu").click();
  const menu = page.locator(".ant-dropdown");
  await expect(menu).toBeVisible();
  expect(await runningAnimations(menu)).toBe(0);
  await menu.getByRole("menuitem", { name: "Sign out" }).click();
  const dialog = page.locator(".ant-modal").filter({ hasText: "Sign out?" });
  await expect(dialog).toBeVisible();
  expect(await runningAnimations(dialog)).toBe(0);
});

test("an admin's long side menu scrolls by itself, and the open user menu stays under its button while the page scrolls", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  const sider = page.locator(".ant-layout-sider");
  const siderMenu = sider.locator(".ant-menu-root");
  await expect(sider.getByRole("menuitem", { name: "Sign out" })).toBeAttached();
  expect(await siderMenu.evaluate((menu) => menu.scrollHeight > menu.clientHeight)).toBe(true);
  // The dashboard is taller than the window once its figures are in, which may be after the address changes.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight > innerHeight)).toBe(true);

  await page.getByTestId("user-menu").click();
  const signOut = page.locator(".ant-dropdown").getByRole("menuitem", { name: "Sign out" });
  await expect(signOut).toBeVisible();
  const before = await signOut.boundingBox();
  const siderBefore = await sider.boundingBox();
  await page.evaluate(() => window.scrollBy(0, 100));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  // Two frames, so a menu re-placed after the scroll would have moved by now.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await signOut.boundingBox()).toEqual(before);
  expect(await sider.boundingBox()).toEqual(siderBefore);
  // Its background reaches the window's bottom on a page scrolled down (it once stopped half way).
  expect(siderBefore!.y + siderBefore!.height).toBeGreaterThanOrEqual(500);

  await signOut.click();
  await expect(page.getByRole("dialog", { name: "Sign out?" })).toBeVisible();
});

test("a toast stays while the pointer is on it and closes after its time once the pointer leaves", async ({ page }) => {
  const shell = new Shell(page);
  // The page's timers run on a clock the test can move: the toast's time passes without waiting for it.
  await page.clock.install();
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  await page.getByLabel("Display name").fill("Demo Customer");
  await page.getByRole("button", { name: "Save" }).click();

  const toast = shell.toast("Profile saved");
  await expect(toast).toBeVisible();
  await toast.hover();
  // Longer than the 5000 ms it would have lived without the pointer on it.
  await page.clock.runFor(6000);
  await expect(toast).toBeVisible();

  await page.mouse.move(12, 780);
  await page.clock.runFor(6000);
  await expect(toast).toBeHidden();

  // The demo customer keeps the seeded name for the suites after this one.
  await page.getByLabel("Display name").fill("Casey Customer");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(shell.toast("Profile saved")).toBeVisible();
});

test("the colour mode follows the system, and a chosen mode survives a reload", async ({ page }) => {
  const shell = new Shell(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await shell.expectColourMode("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await shell.expectColourMode("light");

  await shell.chooseColourMode("Dark");
  await shell.expectColourMode("dark");
  await page.reload();
  // Applied by public/colour-mode.js before the app's code runs.
  expect(await page.evaluate(() => document.documentElement.className)).toContain("dark");
  await shell.expectColourMode("dark");

  await shell.chooseColourMode("System");
  await shell.expectColourMode("light");
  await page.emulateMedia({ colorScheme: "dark" });
  await shell.expectColourMode("dark");
});

test("after a new release the next navigation is a full page load, and only the next", async ({ page }) => {
  const shell = new Shell(page);
  await page.clock.install();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Tune, flash and log your car with confidence" })).toBeVisible();

  await page.route("**/build-manifest.json", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ buildId: "the-next-release", builtAt: new Date().toISOString() }),
    }),
  );
  const manifestRead = page.waitForRequest("**/build-manifest.json");
  // The app polls the manifest every minute.
  await page.clock.runFor(60_000);
  await manifestRead;

  const mark = () => page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const sameDocument = () => page.evaluate(() => "sameDocument" in window);
  await mark();
  // The page's "load" event fires only for a full page load, never for a client-side transition.
  const fullLoad = page.waitForEvent("load");
  await shell.siteLink("FAQs").click();
  await fullLoad;
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
  expect(await sameDocument(), "the navigation after the release loads the page anew").toBe(false);

  await mark();
  await shell.siteLink("Contact").click();
  await expect(page).toHaveURL(/\/contact-us$/);
  await expect(page.getByRole("heading", { level: 1, name: "Contact us" })).toBeVisible();
  expect(await sameDocument(), "the release was picked up: the navigation after it stays in the page").toBe(true);
});

test("a page is as it was left when coming back: an opened answer, a half-typed form", async ({ page }) => {
  const shell = new Shell(page);
  await page.goto("/faqs");
  await page.getByRole("button", { name: "Can I go back to stock?" }).click();
  const answer = page.getByText("The app reads and keeps your original software");
  await expect(answer).toBeVisible();
  await shell.siteLink("Contact").click();
  await expect(page).toHaveURL(/\/contact-us$/);
  await expect(answer).toBeHidden();
  await shell.siteLink("FAQs").click();
  await expect(answer).toBeVisible();

  await page.goto("/create-account");
  await page.getByLabel("Name").fill("Half typed");
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack();
  await expect(page.getByLabel("Name")).toHaveValue("Half typed");
});
