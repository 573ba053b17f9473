import { expect } from "@playwright/test";
import sharp from "sharp";
import { consoleErrors, passwordPolicyRequests } from "./pages/console-errors";
import { newEmail, PASSWORD, test } from "./pages/identity";
import { LoginPage } from "./pages/login-page";

async function signedIn(page: import("@playwright/test").Page, email: string, password = PASSWORD) {
  const login = new LoginPage(page);
  await login.open("/profile");
  await login.signIn(email, password);
  await expect(page).toHaveURL(/\/profile$/);
}

test("the profile page, with its new-password form, asks the Auth emulator for no password policy and logs no error", async ({
  page,
  emulator,
}) => {
  const email = newEmail("console");
  await emulator.createUser(email);
  await signedIn(page, email);
  const errors = consoleErrors(page);
  const asked = passwordPolicyRequests(page);
  await page.reload();
  await expect(page.getByRole("list", { name: "Password requirements" })).toContainText("At least 6 characters");
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
});

test("a user uploads a profile picture, which the server stores resized", async ({ page, emulator }) => {
  const email = newEmail("photo");
  await emulator.createUser(email);
  await signedIn(page, email);
  const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  await page.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await expect(page.getByText("Picture updated").first()).toBeVisible();
  const avatar = page.getByRole("img", { name: "Your profile picture" });
  await expect(avatar).toHaveAttribute("src", /\/api\/v1\/profile-pictures\/[0-9a-f]{64}$/);
  const served = await page.request.get((await avatar.getAttribute("src"))!);
  expect(await sharp(await served.body()).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });

  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByText("Choose a JPEG, PNG, WebP or GIF image.")).toBeVisible();
});

test("changing the password asks for the current one when the sign-in is not recent", async ({ page, emulator }) => {
  const email = newEmail("password");
  await emulator.createUser(email);
  await signedIn(page, email);
  // As if the last sign-in were long ago: the service refuses the first change and wants a fresh sign-in.
  let refused = false;
  await page.route("**/accounts:update?*", async (route) => {
    if (route.request().postDataJSON().password && !refused) {
      refused = true;
      return route.fulfill({ status: 400, json: { error: { code: 400, message: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN" } } });
    }
    return route.continue();
  });
  await page.getByLabel("New password").fill("New-gearbox-7");
  await page.getByRole("button", { name: "Change password" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Current password").fill("wrong-password");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Email or password is incorrect.");
  await dialog.getByLabel("Current password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Password changed.")).toBeVisible();
  expect(await emulator.idToken(email, "New-gearbox-7")).toBeTruthy();
});

test("signing out of all devices ends this session and the others", async ({ page, browser, emulator }) => {
  const email = newEmail("everywhere");
  await emulator.createUser(email);
  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await signedIn(other, email);
  await signedIn(page, email);

  // Revocation has one-second resolution: sessions from the same second as the revocation survive it.
  await page.waitForTimeout(1100);
  await page.getByRole("button", { name: "Sign out of all devices" }).click();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The other browser is refused at its next call and signed out.
  await other.goto("/dashboard");
  await other
    .getByTestId("user-menu")
    .click({ timeout: 5000 })
    .then(() => other.getByRole("menuitem", { name: "Profile" }).click({ timeout: 5000 }))
    .catch(() => {});
  await expect(other).toHaveURL(/\/login/);
  await laptop.close();
});

test("deleting the account asks for the password, then removes the account", async ({ page, emulator }) => {
  const email = newEmail("delete");
  await emulator.createUser(email);
  await signedIn(page, email);
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await dialog.getByLabel("Current password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await emulator.lookup(email)).toBeUndefined();
  await page.goto("/login");
  await new LoginPage(page).signIn(email, PASSWORD);
  await expect(page.getByRole("alert").first()).toHaveText("Email or password is incorrect.");
});
