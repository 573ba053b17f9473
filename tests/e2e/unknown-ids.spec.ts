/**
 * Every `:id` route of the app, opened by the role that may see it, with an id that names nothing
 * (well-formed but unknown, and malformed): the spec's 404 page, "Page Not Found", with Go Home,
 * instead of an empty page or a drawer that never loads.
 */
import { expect, test } from "@playwright/test";
import { demoUsers, LoginPage } from "./pages/login-page";
import { Shell } from "./pages/shell";

const UNKNOWN = "0b7e2f4c-1d3a-4e5b-9c6d-7e8f9a0b1c2d";

const routes: Record<keyof typeof demoUsers, string[]> = {
  customer: [
    `/my-devices/${UNKNOWN}`,
    "/my-devices/not-a-vehicle",
    `/tuning-tools/data-logs/${UNKNOWN}`,
    `/checkout/${UNKNOWN}`,
    "/checkout/not-an-order",
    `/my-tunes/show/${UNKNOWN}`,
    `/vehicle-support/show/${UNKNOWN}`,
  ],
  dealer: [
    `/managed-devices/${UNKNOWN}`,
    "/managed-devices/not-a-vehicle",
    `/tuning-requests/show/${UNKNOWN}`,
    "/tuning-requests/show/not-a-request",
  ],
  admin: [
    "/admin/users/no-such-user-at-all",
    `/admin/onboarding-vehicles/show/${UNKNOWN}`,
    `/admin/firmware-support/show/${UNKNOWN}`,
    `/admin/firmware-support/edit/${UNKNOWN}`,
    `/admin/tune-file-patches/show/${UNKNOWN}`,
    `/admin/tune-file-patches/edit/${UNKNOWN}`,
    `/admin/obd-functions/edit/${UNKNOWN}`,
    `/admin/pid-templates/edit/${UNKNOWN}`,
    `/admin/pid-templates/descriptors/edit/${UNKNOWN}`,
    `/admin/computed-descriptors/edit/${UNKNOWN}`,
    `/admin/firmware-support/vehicles/edit/${UNKNOWN}`,
    `/my-devices/${UNKNOWN}`,
  ],
};

for (const [role, paths] of Object.entries(routes) as Array<[keyof typeof demoUsers, string[]]>) {
  test(`as the ${role}, every :id route with a made-up id shows 404 Page Not Found`, async ({ page }) => {
    const shell = new Shell(page);
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(demoUsers[role]);
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const path of paths) {
      await page.goto(path);
      await expect(shell.errorStatus(404), path).toBeVisible();
      await expect(shell.errorMessage(), path).toHaveText("Page Not Found");
      await expect(page.getByRole("button", { name: "Go Home" }), path).toBeVisible();
    }
    // Go Home leaves the error page (a page kept alive off screen may keep its own, hidden).
    await page.getByRole("button", { name: "Go Home" }).click();
    await expect(page).not.toHaveURL(new RegExp(`${paths.at(-1)}$`));
    await expect(shell.errorMessage().filter({ visible: true })).toHaveCount(0);
  });
}
