import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { newEmail, PASSWORD, test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";

const publicPages = [
  { path: "/", heading: "Tune, flash and log your car with confidence" },
  { path: "/faqs", heading: "Frequently asked questions" },
  { path: "/about-us", heading: "About us" },
  { path: "/contact-us", heading: "Contact us" },
  { path: "/legal/terms", heading: "Terms of use" },
  { path: "/legal/privacy", heading: "Privacy" },
  { path: "/demo-request", heading: "Request a demo" },
  { path: "/download-app", heading: "Get the app" },
  { path: "/dealer-account-request", heading: "Become a dealer" },
  { path: "/login", heading: "Sign in" },
  { path: "/create-account", heading: "Create your account" },
  { path: "/forgot-password", heading: "Reset your password" },
  { path: "/mail-to-redirect?email=a%40gmail.com", heading: "We emailed you a link" },
  { path: "/docs/getting-started", heading: "Getting started" },
];

for (const { path, heading } of publicPages) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(
      serious.map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
      ),
    ).toEqual([]);
  });
}

test("a public page arrives rendered in its HTML and the app takes it over in the same place, at 375 and 1280 px", async ({
  page,
  browser,
  request,
}) => {
  const html = await (await request.get("/login")).text();
  expect(html).toContain('class="page-snapshot page-snapshot-narrow" inert aria-hidden="true"');
  expect(html).toMatch(/<h1[^>]*>Sign in<\/h1>/);
  for (const width of [375, 1280]) {
    // The snapshot alone, as a phone shows it before the JavaScript arrives.
    const withoutScripts = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width, height: 800 },
      baseURL: test.info().project.use.baseURL,
    });
    const snapshotPage = await withoutScripts.newPage();
    await snapshotPage.goto("/login");
    const snapshotHeading = await snapshotPage.locator(".page-snapshot h1").filter({ visible: true }).boundingBox();
    const snapshotMenu = await snapshotPage.locator(".page-snapshot header").filter({ visible: true }).boundingBox();
    await withoutScripts.close();
    expect(snapshotHeading, `the snapshot shows its heading at ${width} px`).not.toBeNull();

    await page.setViewportSize({ width, height: 800 });
    await page.goto("/login");
    const heading = page.getByRole("heading", { name: "Sign in", level: 1 });
    await expect(heading).toBeVisible();
    await expect(page.locator(".page-snapshot")).toHaveCount(0);
    const appHeading = await heading.boundingBox();
    const appHeader = await page.locator("header").first().boundingBox();
    expect(
      Math.abs((appHeading?.y ?? 0) - (snapshotHeading?.y ?? 0)),
      `heading moved at ${width} px`,
    ).toBeLessThanOrEqual(1);
    expect(
      Math.abs((appHeading?.x ?? 0) - (snapshotHeading?.x ?? 0)),
      `heading moved at ${width} px`,
    ).toBeLessThanOrEqual(1);
    expect(
      Math.abs((appHeader?.height ?? 0) - (snapshotMenu?.height ?? 0)),
      `header height changed at ${width} px`,
    ).toBeLessThanOrEqual(1);
    await page.getByLabel("Email").fill("someone@example.com");
    await expect(page.getByLabel("Email")).toHaveValue("someone@example.com");
  }
});

test("every public page's snapshot fits a 375 px phone without sideways scrolling, before any script runs", async ({
  browser,
  request,
}) => {
  const withoutScripts = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 800 },
    baseURL: test.info().project.use.baseURL,
  });
  const page = await withoutScripts.newPage();
  const snapshotted = publicPages.filter(
    ({ path }) => !path.includes("?") && !path.startsWith("/docs") && path !== "/download-app",
  );
  for (const { path, heading } of snapshotted) {
    expect(await (await request.get(path)).text(), `${path} comes rendered`).toContain("page-snapshot-narrow");
    await page.goto(path);
    await expect(
      page.locator(".page-snapshot h1").filter({ visible: true }),
      `${path}'s snapshot shows its heading`,
    ).toHaveText(heading);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${path}'s snapshot scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  }
  await withoutScripts.close();
});

test("a public page brings a stylesheet of the antd components it shows: the app writes none of their styles on the first visit", async ({
  browser,
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
  // A path no route knows opens the bare index.html, whose sheet holds every component's styles.
  const everyComponentsSheet = await stylesheetOf("/no/such/page");
  const landingSheet = await stylesheetOf("/");
  expect(landingSheet, "the landing's own sheet").not.toBe(everyComponentsSheet);
  expect(await sizeOf(landingSheet), "the landing's sheet is smaller than half of every component's").toBeLessThan(
    (await sizeOf(everyComponentsSheet)) / 2,
  );
  const snapshotted = publicPages.filter(
    ({ path }) => !path.includes("?") && !path.startsWith("/docs") && path !== "/download-app",
  );
  // The sheets are made for the theme a visitor starts with: light, with motion (the suite's other tests reduce it).
  const context = await browser.newContext({
    reducedMotion: "no-preference",
    colorScheme: "light",
    baseURL: test.info().project.use.baseURL,
  });
  // What antd's style engine had written (it marks each style with its hash) when the app took the
  // page over from the snapshot: what the page shows later (the landing's table, when scrolled near) may write its own.
  await context.addInitScript(() => {
    const record = () => {
      const taken =
        !document.querySelector(".page-snapshot") && (document.getElementById("root")?.childElementCount ?? 0) > 0;
      if (taken && !("writtenAtTakeOver" in window)) {
        Object.assign(window, {
          writtenAtTakeOver: [...document.querySelectorAll("style[data-css-hash]")].map((style) =>
            (style.textContent ?? "").slice(0, 60),
          ),
        });
      }
    };
    new MutationObserver(record).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const { path, heading } of snapshotted) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      await expect(page.locator(".page-snapshot")).toHaveCount(0);
      const written = await page.evaluate(
        () => (window as unknown as { writtenAtTakeOver?: string[] }).writtenAtTakeOver,
      );
      expect(written, `${path} at ${width} px: styles written at run time`).toEqual([]);
    }
  }
  await context.close();
});

test("a page the build did not render says it is loading before any script runs, and the app replaces the notice", async ({
  browser,
  page,
}) => {
  const withoutScripts = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
  });
  const bare = await withoutScripts.newPage();
  await bare.goto("/dashboard");
  await expect(bare.getByRole("status")).toHaveText("Loading the portal…");
  await withoutScripts.close();

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?to=%2Fdashboard$/);
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await expect(page.getByText("Loading the portal…")).toHaveCount(0);
});

test("the public pages fit a 320 px screen without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const { path, heading } of publicPages.slice(0, 9)) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  }
});

test("on a phone the site's menu opens from its button, marks the page shown, and its links go to their pages", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  await expect(
    page.getByRole("heading", { name: "Tune, flash and log your car with confidence", level: 1 }),
  ).toBeVisible();
  // The drawer's code loads when the button is pressed (src/components/layouts/landing-layout.tsx).
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  const menu = page.getByRole("dialog").filter({ hasText: "Menu" });
  await expect(menu.locator(".ant-menu-item-selected")).toHaveText("Home");
  await menu.getByRole("link", { name: "FAQs" }).click();
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.getByRole("heading", { name: "Frequently asked questions", level: 1 })).toBeVisible();
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await expect(menu.locator(".ant-menu-item-selected")).toHaveText("FAQs");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
});

test("the home page lists the supported vehicles the catalogue holds", async ({ page, request, emulator }) => {
  const token = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const headers = { authorization: `Bearer ${token}` };
  const firmwareId = `E2E-${randomBytes(3).toString("hex")}`;
  const model = `Golf R ${firmwareId}`;
  expect(
    (
      await request.put("/api/v1/firmware-support/firmware-support", {
        headers,
        data: { firmwareId, ecuFamily: "Simos 18", manufacturer: "Continental", imageSize: 4194304 },
      })
    ).ok(),
  ).toBe(true);
  const vehicle = await request.put("/api/v1/firmware-support/supported-vehicle", {
    headers,
    data: {
      make: "Volkswagen",
      model,
      generation: "Mk7",
      engine: "2.0 TSI EA888",
      yearFrom: 2014,
      yearTo: 2020,
      ecu: "Simos 18.1",
      firmwareIds: [firmwareId],
    },
  });
  expect(vehicle.ok(), await vehicle.text()).toBe(true);

  await page.goto("/");
  // The table loads as the reader scrolls near it.
  await page.getByRole("heading", { name: "Supported vehicles" }).scrollIntoViewIfNeeded();
  const list = page.getByRole("table");
  await page.getByRole("searchbox", { name: "Search supported vehicles" }).fill(firmwareId);
  await expect(
    list.getByRole("row", { name: new RegExp(`Volkswagen ${model} Mk7 2.0 TSI EA888 2014–2020`) }),
  ).toBeVisible();
  await page.getByRole("searchbox", { name: "Search supported vehicles" }).fill("no such car anywhere");
  await expect(page.getByText("No supported vehicle matches that search.")).toBeVisible();
});

test("a visitor sends the contact form; a field error reads the same as on the server", async ({ page }) => {
  await page.goto("/contact-us");
  await page.getByRole("button", { name: "Send message" }).click();
  // The messages under the fields (the topic's placeholder reads the same as its message).
  const fieldErrors = page.locator(".ant-form-item-explain-error");
  await expect(fieldErrors.filter({ hasText: "Enter your name" })).toBeVisible();
  await expect(fieldErrors.filter({ hasText: "Choose a topic" })).toBeVisible();

  await page.getByLabel("Your name").fill("Sam Driver");
  await page.getByLabel("Email").fill("sam@example.test");
  await page.getByLabel("What is it about?").click();
  // antd keeps its role="option" nodes for screen readers only; people click the visible item.
  await page.locator(".ant-select-item-option", { hasText: "Is my vehicle supported?" }).click();
  await page.getByRole("textbox", { name: "Vehicle" }).fill("Golf R Mk7 2016");
  await page.getByLabel("Message").fill("short");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Write at least 10 characters")).toBeVisible();
  await page.getByLabel("Message").fill("Is the Simos 18.1 in my Golf R supported for a stage 1 tune?");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Thank you, your message is on its way")).toBeVisible();
});

test("a business sends a demo request", async ({ page }) => {
  await page.goto("/demo-request");
  await page.getByLabel("Your name").fill("Alex Tuner");
  await page.getByLabel("Work email").fill("alex@shop.example.test");
  await page.getByLabel("Business name").fill("Alex Tuning Ltd");
  await page.getByLabel("Phone").fill("call me");
  await page.getByRole("button", { name: "Request a demo" }).click();
  await expect(page.getByText(/Enter a phone number with digits/)).toBeVisible();
  await page.getByLabel("Phone").fill("+44 20 7946 0958");
  await page.getByLabel("Platforms you tune").fill("VAG MQB, BMW B58");
  await page.getByRole("button", { name: "Request a demo" }).click();
  await expect(page.getByText("Thank you, we will be in touch")).toBeVisible();
});

test("a signed-out visitor asking for a dealer account signs in first and comes back to the form", async ({
  page,
  emulator,
}) => {
  const email = newEmail("dealer");
  await emulator.createUser(email);
  await page.goto("/dealer-account-request");
  await page.getByRole("link", { name: "Sign in to apply" }).click();
  await expect(page).toHaveURL(/\/login\?to=%2Fdealer-account-request$/);
  await new LoginPage(page).signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dealer-account-request$/);

  await page.getByLabel("Business name").fill("Fast Lane Tuning");
  await page.getByLabel("Business address").fill("1 Dyno Road, Leeds LS1 1AA");
  await page.getByLabel("Company registration number").fill("12345678");
  await page.getByLabel("VAT number").fill("GB123456789");
  await page.getByLabel("Website").fill("fastlane.example.test");
  await page.getByLabel("Business phone").fill("+44 113 496 0000");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText("Enter the full address, starting with https://")).toBeVisible();
  await page.getByLabel("Website").fill("https://fastlane.example.test");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText("Dealer account for Fast Lane Tuning")).toBeVisible();
  await expect(page.getByText(/is waiting for approval/)).toBeVisible();

  await page.reload();
  await expect(page.getByText("Dealer account for Fast Lane Tuning")).toBeVisible();
});

test("the download page has both store links and a QR code; /redirect-app falls back to it without the app", async ({
  page,
}) => {
  await page.goto("/download-app");
  await expect(page.getByRole("link", { name: "Download on the App Store" })).toHaveAttribute(
    "href",
    /^https:\/\/apps\.apple\.com\//,
  );
  await expect(page.getByRole("link", { name: "Get it on Google Play" })).toHaveAttribute(
    "href",
    /^https:\/\/play\.google\.com\/store\/apps\/details\?id=/,
  );
  await expect(page.locator(".ant-qrcode canvas")).toBeVisible();

  await page.goto("/redirect-app?device=abc123&action=pair");
  await expect(page.getByRole("link", { name: "Open the app" })).toHaveAttribute(
    "href",
    "tuningportal://open?device=abc123&action=pair",
  );
  await expect(page).toHaveURL(/\/download-app\?from=redirect$/);
  await expect(page.getByText("The app did not open on this device")).toBeVisible();
});

test("docs have a sidebar and an in-page table of contents; an unknown slug is a 404", async ({ page }) => {
  await page.goto("/docs/flashing");
  await expect(page.getByRole("heading", { name: "Flashing a tune", level: 1 })).toBeVisible();
  const contents = page.getByRole("navigation", { name: "On this page" });
  await contents.getByRole("link", { name: "If a flash fails" }).click();
  await expect(page).toHaveURL(/#if-a-flash-fails$/);
  await expect(page.getByRole("heading", { name: "If a flash fails" })).toBeInViewport();

  await page.getByRole("menuitem", { name: "Data logs" }).click();
  await expect(page).toHaveURL(/\/docs\/data-logs$/);
  await expect(page.getByRole("heading", { name: "Data logs", level: 1 })).toBeVisible();

  await page.goto("/docs/no-such-doc");
  await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
  await expect(page.getByText("Page not found: /docs/no-such-doc")).toBeVisible();
});
