import { type Page, expect, test } from "@playwright/test";
import { LayoutProbe } from "./pages/layout-probe";
import { LoginPage, demoUsers } from "./pages/login-page";

/**
 * Every main route, as each role that may open it, on a phone (375 px) and a desktop (1280 px):
 * nothing scrolls sideways, nothing covers the page title, the navigation can be reached, and a
 * signed-out visitor is offered no signed-in controls. One page per role, signed in once.
 */
const routes = {
  visitor: ["/", "/login", "/managed-dealers", "/faqs"],
  customer: ["/", "/dashboard", "/my-tunes", "/my-devices", "/tuning-tools/data-logs", "/notifications", "/profile"],
  dealer: ["/tuning-requests", "/my-tunes", "/managed-dealers"],
  admin: ["/admin/users", "/admin/firmware-support", "/admin/firmware-support/matrix", "/admin/flashing-overview"],
} as const;

const widths = [375, 1280];

async function checkRoutes(page: Page, role: keyof typeof routes) {
  const probe = new LayoutProbe(page);
  const problems: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of routes[role]) {
      await page.goto(path);
      // The page has rendered when its main heading shows (a portal page's h2, the landing's h1, a full-screen page's h3).
      await expect(page.locator("h1, h2, h3").filter({ visible: true }).first(), `${path} at ${width} px shows a heading`).toBeVisible();
      // Lists fill in after the heading: let them settle (the live-events stream keeps the network busy, so not "networkidle").
      await page.waitForTimeout(250);
      const where = `${path} as ${role} at ${width} px`;
      const overflow = await probe.sidewaysOverflow();
      if (overflow > 0) problems.push(`${where} scrolls sideways by ${overflow} px`);
      if (path !== "/" && path !== "/login") {
        const cover = await probe.titleCoveredBy();
        if (cover) problems.push(`${where}: the title's first letter is covered by ${cover}`);
      }
      try {
        await probe.expectNavigationReachable();
      } catch {
        problems.push(`${where}: neither a menu nor a menu button is visible`);
      }
      if (role === "visitor" && (await probe.signOutControls().count()) > 0) problems.push(`${where} offers "Sign out" to a visitor`);
      if (path === "/admin/firmware-support/matrix" && width === 1280) {
        const selected = await probe.selectedMenuItem();
        if (selected !== "Firmware support") problems.push(`${where}: the menu highlights ${JSON.stringify(selected)}, not "Firmware support"`);
        if (!(await probe.breadcrumb().isVisible())) problems.push(`${where} has no breadcrumb`);
      }
    }
  }
  expect(problems, "layout problems").toEqual([]);
}

async function signIn(page: Page, email: string) {
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe("light mode", () => {
  test.use({ colorScheme: "light" });

  test("a signed-out visitor's pages fit a phone and a desktop, with the site menu reachable and no Sign out", async ({ page }) => {
    await checkRoutes(page, "visitor");
  });

  for (const role of ["customer", "dealer", "admin"] as const) {
    test(`the ${role}'s pages fit a phone and a desktop, with the menu reachable and titles uncovered`, async ({ page }) => {
      await signIn(page, demoUsers[role]);
      await checkRoutes(page, role);
    });
  }
});

test.describe("dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the customer's pages fit a phone and a desktop in the dark theme too", async ({ page }) => {
    await signIn(page, demoUsers.customer);
    await checkRoutes(page, "customer");
  });

  test("a signed-out visitor's pages fit in the dark theme too", async ({ page }) => {
    await checkRoutes(page, "visitor");
  });
});
