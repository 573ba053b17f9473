import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { newEmail, PASSWORD, test } from "./pages/identity";
import { demoUsers, LoginPage } from "./pages/login-page";

test("a visitor finds the demo dealer by a vehicle they tune, and is told when nobody tunes one", async ({ page }) => {
  await page.goto("/managed-dealers");
  const dealers = page.getByRole("table", { name: "Dealers" });
  await expect(dealers.getByRole("row").filter({ hasText: "Demo Performance Ltd" })).toContainText(
    "Demo Motors Hatchback",
  );
  await page.getByRole("searchbox", { name: "Search" }).fill("corolla");
  await page.getByRole("searchbox", { name: "Search" }).press("Enter");
  await expect(page.getByText("No dealer matches")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).fill("hatchback");
  await page.getByRole("searchbox", { name: "Search" }).press("Enter");
  await expect(dealers.getByRole("row").filter({ hasText: "Demo Performance Ltd" })).toContainText("GB");
  await expect(dealers).not.toContainText("@");
});

test("a visitor opens a dealer's page from the directory, sees their tunes, and asks them for a custom tune once signed in", async ({
  page,
}) => {
  await page.goto("/managed-dealers");
  await page.getByRole("table", { name: "Dealers" }).getByRole("link", { name: "Demo Performance Ltd" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Demo Performance Ltd" })).toBeVisible();
  const tunes = page.getByRole("table", { name: "Tunes" });
  // By its title: other specs publish tunes of this dealer for the same firmware.
  const demoTune = tunes.getByRole("row").filter({ hasText: "Demo stage 1" });
  await expect(demoTune).toContainText("DEMO-ECU-0001");
  await expect(demoTune).toContainText("€249.00");
  await page.getByRole("button", { name: "Sign in to ask this dealer for a custom tune" }).click();
  await new LoginPage(page).signIn(demoUsers.customer);
  // Back on the dealer's page, signed in: the request form opens for the customer's only car with this dealer chosen.
  await page.getByRole("button", { name: "Ask this dealer for a custom tune" }).click();
  const ask = page.getByRole("form", { name: "Ask for a custom tune" });
  await expect(page.getByRole("dialog").getByText("For Demo hatchback")).toBeVisible();
  await expect(ask.locator(".ant-select-selection-item").first()).toContainText("Demo Performance Ltd");
});

test("an admin approves a dealer application with the reason the applicant is told", async ({
  page,
  request,
  emulator,
}) => {
  const email = newEmail("applicant");
  await emulator.createUser(email);
  const token = await emulator.idToken(email, PASSWORD);
  const applied = await request.post("/api/v1/dealers", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      businessName: "Remap Republic",
      address: "3 Turbo Street, Bristol BS1 4DJ",
      registrationNumber: "11223344",
      phone: "+44 117 496 0000",
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);

  await new LoginPage(page).open("/managed-dealers");
  await new LoginPage(page).signIn(demoUsers.admin);
  await page.getByRole("radiogroup", { name: "Status" }).getByText("Applications").click();
  const row = page.getByRole("table", { name: "Dealers" }).getByRole("row").filter({ hasText: "Remap Republic" });
  await expect(row).toContainText("pending");
  await expect(row).toContainText(email);
  await row.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve Remap Republic" });
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("give a reason: the dealer is told it");
  await dialog.getByLabel("Reason").fill("Company documents checked");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("radiogroup", { name: "Status" }).getByText("Approved").click();
  const approved = page.getByRole("table", { name: "Dealers" }).getByRole("row").filter({ hasText: "Remap Republic" });
  await expect(approved).toContainText("approved");
  await expect(approved).toContainText("Company documents checked");
  await expect(approved.getByRole("button", { name: "Suspend" })).toBeVisible();
});

test("a dealer writes what their page says about the business, and a signed-out visitor reads it there", async ({
  page,
  browser,
}) => {
  const about = `We map petrol and diesel engines on our own rolling road. ${randomBytes(3).toString("hex")}\nAsk us for a custom tune.`;
  await new LoginPage(page).open("/profile");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const form = page.getByRole("form", { name: "About your business" });
  await form.getByLabel("About", { exact: true }).fill(about);
  await form.getByRole("button", { name: "Save about text" }).click();
  await expect(page.getByText("About text saved").first()).toBeVisible();
  const dealerPage = await page.getByRole("link", { name: "your dealer page" }).getAttribute("href");

  const visitor = await browser.newContext();
  const visit = await visitor.newPage();
  await visit.goto(dealerPage ?? "");
  await expect(visit.getByRole("heading", { level: 2, name: "Demo Performance Ltd" })).toBeVisible();
  const shown = visit.getByRole("region", { name: "About Demo Performance Ltd" });
  // As written: two lines, no markup.
  await expect(shown).toHaveText(about);
  expect(await shown.innerText()).toBe(about);
  await visitor.close();
});
