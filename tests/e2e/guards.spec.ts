import { expect, test } from "@playwright/test";
import { demoUsers, LoginPage, Portal } from "./pages/login-page";

/** One route of each guard group, and who sees it. */
const routes = [
  { path: "/dashboard", heading: "Dashboard", allowed: ["customer", "dealer", "admin"] },
  { path: "/tuning-requests", heading: "Tuning requests", allowed: ["dealer", "admin"] },
  { path: "/admin/app-info", heading: "App info", allowed: ["admin"] },
] as const;

for (const role of ["customer", "dealer", "admin"] as const) {
  test(`${role} signs in and sees exactly the pages of their role`, async ({ page }) => {
    const login = new LoginPage(page);
    const portal = new Portal(page);
    await login.open();
    await login.signIn(demoUsers[role]);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("account-role")).toHaveText(role);

    for (const route of routes) {
      await page.goto(route.path);
      if ((route.allowed as readonly string[]).includes(role)) {
        await expect(portal.heading(route.heading)).toBeVisible();
        await expect(portal.forbidden()).toHaveCount(0);
      } else {
        await expect(portal.forbidden()).toBeVisible();
        await expect(page.getByText("Forbidden")).toBeVisible();
        await expect(portal.heading(route.heading)).toHaveCount(0);
      }
    }
    await portal.signOut();
  });
}

test("a signed-out deep link goes to sign-in and comes back after signing in", async ({ page }) => {
  await page.goto("/admin/app-info?tab=health");
  await expect(page).toHaveURL(/\/login\?to=%2Fadmin%2Fapp-info%3Ftab%3Dhealth$/);
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page).toHaveURL(/\/admin\/app-info\?tab=health$/);
  await expect(new Portal(page).heading("App info")).toBeVisible();
  await expect(page.getByText("Database", { exact: true })).toBeVisible();
});

test("a wrong password reads plainly and keeps the visitor on the sign-in page", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(demoUsers.customer, "not-the-password");
  await expect(await login.error()).toHaveText("Email or password is incorrect.");
  await expect(page).toHaveURL(/\/login$/);
});

test("after signing out, portal pages ask to sign in again", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  await new Portal(page).signOut();
  await page.goto("/my-devices");
  await expect(page).toHaveURL(/\/login\?to=%2Fmy-devices$/);
});

test("an unknown path shows a 404 naming it", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
  await expect(page.getByText("Page not found: /no/such/page")).toBeVisible();
});
