import { expect, type Page, test } from "@playwright/test";
import { LayoutProbe } from "./pages/layout-probe";
import { demoUsers, LoginPage } from "./pages/login-page";
import { WALKED_ROUTES } from "./route-walk";

/**
 * A page load on a portal page paints the portal's frame with the page's title, drawn by the build
 * (src/components/layouts/portal-shell.tsx, scripts/lib/prerender.ts), for someone signed in, while
 * the portal's code downloads; the app's page then takes its place.
 */

/** Holds the portal's code back until the returned function is called: what a phone shows while it downloads. */
async function holdPortalCode(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/portal-app-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function signIn(page: Page, email: string) {
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

const drawnFrame = (page: Page) => page.locator(".page-snapshot");

for (const width of [375, 1280]) {
  test(`signed in, a page load on the dashboard shows the portal's frame and the page's title at once at ${width} px, then the page where the title was`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, demoUsers.customer);
    const release = await holdPortalCode(page);
    await page.goto("/dashboard");

    const frame = drawnFrame(page);
    await expect(frame.locator("h2")).toHaveText("Dashboard");
    await expect(frame.locator("h2")).toBeVisible();
    await expect(frame.locator("header")).toBeVisible();
    // The side menu's place on a desktop, the menu button on a phone, as the portal's frame has them.
    await expect(frame.locator(".portal-shell-sider")).toBeVisible({ visible: width >= 992 });
    await expect(frame.getByRole("button", { name: "Menu", includeHidden: true })).toBeVisible({
      visible: width < 992,
    });
    expect(await new LayoutProbe(page).sidewaysOverflow(), "the frame fits the window").toBeLessThanOrEqual(0);
    const drawn = await frame.locator("h2").boundingBox();

    release();
    await expect(frame).toHaveCount(0);
    const title = page.getByRole("heading", { level: 2, name: "Dashboard" });
    await expect(title).toBeVisible();
    await expect(page.getByTestId("user-menu")).toBeVisible();
    const shown = await title.boundingBox();
    expect(
      Math.abs((shown?.x ?? 0) - (drawn?.x ?? 0)),
      "the title stays where it was drawn, across",
    ).toBeLessThanOrEqual(1);
    expect(Math.abs((shown?.y ?? 0) - (drawn?.y ?? 0)), "the title stays where it was drawn, down").toBeLessThanOrEqual(
      1,
    );
  });
}

test("a visitor signed out sees the app loading, not the portal's frame, and is sent to sign in", async ({ page }) => {
  const release = await holdPortalCode(page);
  await page.goto("/dashboard");
  // The app's root shows (the loading notice, then the app's own spinner while the portal's code is held back), not hidden under a frame.
  await expect(page.locator("#root")).toBeVisible();
  await expect(drawnFrame(page)).toBeHidden();
  release();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test.describe("in the dark theme", () => {
  test.use({ colorScheme: "dark" });
  test("signed in, a page load shows the app loading instead of the light frame", async ({ page }) => {
    await signIn(page, demoUsers.customer);
    const release = await holdPortalCode(page);
    await page.goto("/dashboard");
    await expect(page.locator("#root")).toBeVisible();
    await expect(drawnFrame(page)).toBeHidden();
    release();
    await expect(page.getByRole("heading", { level: 2, name: "Dashboard" })).toBeVisible();
  });
});

test("every portal page with a drawn frame is drawn with the title the page shows", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, demoUsers.admin);
  const probe = new LayoutProbe(page);
  const mismatched: string[] = [];
  let drawnPages = 0;
  for (const route of WALKED_ROUTES.filter(
    (candidate) => candidate.guard !== "public" && !candidate.path.includes(":"),
  )) {
    const html = await (await page.request.get(route.path)).text();
    const drawnTitle = /class="page-snapshot"[\s\S]*?<h2[^>]*>([^<]*)<\/h2>/.exec(html)?.[1];
    if (drawnTitle === undefined) continue;
    drawnPages++;
    await probe.openInApp(route.path);
    // The page before stays in the document, hidden, and the new one may still be loading: its title is the one that comes.
    const shownTitle = () =>
      page
        .locator("main h2")
        .filter({ visible: true })
        .first()
        .textContent({ timeout: 5_000 })
        .catch(() => null);
    await expect
      .poll(shownTitle, { timeout: 10_000 })
      .toBe(drawnTitle)
      .catch(async () => mismatched.push(`${route.path}: drawn "${drawnTitle}", shown "${await shownTitle()}"`));
  }
  expect(drawnPages, "portal pages with a drawn frame").toBeGreaterThan(10);
  expect(mismatched).toEqual([]);
});

// The sheets are made for the theme a visitor starts with: light, with motion (the suite's other tests reduce it).
test.describe("with motion, in the light theme", () => {
  test.use({ reducedMotion: "no-preference", colorScheme: "light" });
  test("a page load on the dashboard links a sheet of its own antd components, smaller than every component's, and the app writes no style of its own as it takes over, the icons' included", async ({
    page,
    request,
  }) => {
    const stylesheetOf = async (path: string) =>
      /data-stylesheet="([^"]+)"/.exec(await (await request.get(path)).text())?.[1];
    // A sheet is its parts' addresses, separated by spaces (scripts/lib/stylesheet-parts.ts): its size is theirs together.
    const sizeOf = async (hrefs: string | undefined) => {
      let bytes = 0;
      for (const href of (hrefs ?? "/missing.css").split(" ")) bytes += (await (await request.get(href)).body()).length;
      return bytes;
    };
    const dashboardSheet = await stylesheetOf("/dashboard");
    expect(await sizeOf(dashboardSheet), "the dashboard's sheet is smaller than every component's").toBeLessThan(
      (await sizeOf(await stylesheetOf("/no/such/page"))) * 0.8,
    );
    // What antd's style engine (it marks each style with its hash) had written when the app's page replaced
    // the frame, and any other style written or rewritten by then (the icons' own is in the HTML already).
    await page.addInitScript(() => {
      const fromHtml = new Map<Element, string | null>();
      document.addEventListener("DOMContentLoaded", () => {
        for (const style of document.querySelectorAll("style")) fromHtml.set(style, style.textContent);
      });
      const record = () => {
        if (
          !document.querySelector(".page-snapshot") &&
          document.querySelector("main h2") &&
          !("writtenAtTakeOver" in window)
        ) {
          const engine = [...document.querySelectorAll("style[data-css-hash]")].map((style) =>
            (style.textContent ?? "").slice(0, 60),
          );
          // In the head: where style engines write (the app's own markup may hold a style, as the toaster's keyframes).
          const others = [...document.head.querySelectorAll("style:not([data-css-hash])")]
            .filter((style) => fromHtml.get(style) !== style.textContent)
            .map((style) => (style.textContent ?? "").slice(0, 60));
          Object.assign(window, { writtenAtTakeOver: [...engine, ...others] });
        }
      };
      new MutationObserver(record).observe(document, { childList: true, subtree: true });
    });
    await signIn(page, demoUsers.customer);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 2, name: "Dashboard" })).toBeVisible();
    await expect(drawnFrame(page)).toHaveCount(0);
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll(`link[rel="stylesheet"][href^="/assets/antd-"]`)]
          .map((link) => link.getAttribute("href"))
          .join(" "),
      ),
    ).toBe(dashboardSheet);
    expect(
      await page.evaluate(() => (window as unknown as { writtenAtTakeOver?: string[] }).writtenAtTakeOver),
    ).toEqual([]);
  });

  test("a page load on a data log finds in its sheet every antd style the page shows by the time its chart is drawn, a Button in a compact group's too", async ({
    page,
  }) => {
    await signIn(page, demoUsers.customer);
    await page.goto("/tuning-tools/data-logs");
    await page.locator('a[href^="/tuning-tools/data-logs/"]').first().click();
    await expect(page.getByTestId("log-chart").locator(".uplot").first()).toBeVisible();
    // What antd's style engine had written when the chart's first pane was drawn, on a fresh load of the same log.
    await page.addInitScript(() => {
      const record = () => {
        if (document.querySelector('[data-testid="log-chart"] .uplot') && !("writtenAtChart" in window)) {
          Object.assign(window, {
            writtenAtChart: [...document.querySelectorAll("style[data-css-hash]")].map((style) =>
              (style.textContent ?? "").slice(0, 80),
            ),
          });
        }
      };
      new MutationObserver(record).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await expect(page.getByTestId("log-chart").locator(".uplot").first()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { writtenAtChart?: string[] }).writtenAtChart)).toEqual([]);
  });
});
