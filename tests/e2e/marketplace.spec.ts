import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "../../server/seed/tunes";
import { newEmail, PASSWORD, test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { ReceiptView } from "./pages/receipt";
import { VehiclePage } from "./pages/vehicles";

const demo = generateDemo(DEMO_TUNE_OPTIONS);

test("a customer buys a tune for the demo car in the sandbox, the dealer sees the sale and its fee, an admin refunds it", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  // The demo dealer publishes a tune for the demo firmware at 199.00 EUR.
  const title = `Stage 2 ${randomBytes(3).toString("hex")}`;
  const dealerToken = await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD);
  const uploaded = await request.post("/api/v1/tune-files", {
    headers: { authorization: `Bearer ${dealerToken}` },
    multipart: {
      title,
      file: { name: "stage2.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.tune.image) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const tuneId = (await uploaded.json()).id;
  const published = await request.put(`/api/v1/tune-files/${tuneId}/publish`, {
    headers: { authorization: `Bearer ${dealerToken}` },
    data: { priceCents: 19900, currency: "EUR" },
  });
  expect(published.status()).toBe(200);

  await new LoginPage(page).open("/my-devices");
  await new LoginPage(page).signIn(demoUsers.customer);
  const vehicleId = await new VehiclePage(page).openFromList("Demo hatchback");
  // A second tab stays on the car while the first pays: the licence must appear there by itself.
  const carTab = await page.context().newPage();
  await carTab.goto(`/my-devices/${vehicleId}`);
  await expect(carTab.getByLabel("Licences", { exact: true })).toBeVisible();
  await expect(carTab.getByLabel("Licences", { exact: true })).not.toContainText(title);

  const offer = page.getByTestId("offer").filter({ hasText: title });
  await offer.getByRole("button", { name: /Buy for €199\.00/ }).click();
  await expect(page).toHaveURL(/\/checkout\//);
  const orderId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // The car and the dealer as the seed makes them: the catalogue's Demo Motors Hatchback 2.0 turbo,
  // the demo car's VIN and the demo dealer's business name (server/seed/tunes.ts, server/seed/index.ts).
  const car = `Demo Motors Hatchback · 2.0 turbo (Demo hatchback) · VIN ${DEMO_VIN}`;
  const checkoutOrder = page.getByLabel("Order", { exact: true });
  await expect(checkoutOrder).toContainText(`Licensed for${car}`);
  await expect(checkoutOrder).toContainText("Sold byDemo Performance Ltd");
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: /Pay €199\.00/ }).click();
  await expect(page.getByText("Payment declined")).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /Pay €199\.00/ }).click();
  await expect(page.getByText(`${title} is licensed for your car`)).toBeVisible();
  const receipt = new ReceiptView(page);
  await receipt.expectLines({
    Order: orderId,
    Tune: title,
    Dealer: "Demo Performance Ltd",
    Car: car,
    Amount: "€199.00 (EUR)",
  });
  await receipt.expectDated();
  await receipt.expectPaymentReference(/^pi_sandbox_[0-9a-f]{32}$/);
  // Printing shows the receipt and leaves the portal's menu off the page.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeHidden();
  await expect(page.getByText("Sandbox payments: no money moves")).toBeHidden();
  await expect(receipt.region).toBeVisible();
  await page.emulateMedia({ media: "screen" });
  // Reopened later from the car's licence.
  await carTab.getByTestId("licence").filter({ hasText: title }).getByRole("link", { name: "Receipt" }).click();
  await expect(carTab).toHaveURL(new RegExp(`/checkout/${orderId}$`));
  await new ReceiptView(carTab).expectLines({ Order: orderId, Dealer: "Demo Performance Ltd", Car: car });
  await expect(carTab.getByTestId("licence").filter({ hasText: title })).toContainText("unused");
  await carTab.close();

  // The dealer's ledger shows the sale and the platform's fee.
  const dealerContext = await browser.newContext();
  const dealerPage = await dealerContext.newPage();
  await new LoginPage(dealerPage).open("/my-tunes");
  await new LoginPage(dealerPage).signIn(demoUsers.dealer);
  await dealerPage.getByRole("tab", { name: "Sales and payments" }).click();
  const ledger = dealerPage.getByRole("table", { name: "Transactions" });
  await expect(ledger.getByRole("row").filter({ hasText: `Sold ${title}` })).toContainText("€199.00");
  await expect(ledger.getByRole("row").filter({ hasText: `Platform fee on ${title}` })).toContainText("-€19.90");
  await dealerContext.close();

  // An admin refunds it from the car's page: the licence goes.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await new LoginPage(adminPage).open(`/my-devices/${vehicleId}`);
  await new LoginPage(adminPage).signIn(demoUsers.admin);
  const licence = adminPage.getByTestId("licence").filter({ hasText: title });
  await licence.getByRole("button", { name: "Refund and remove" }).click();
  const dialog = adminPage.getByRole("dialog", { name: `Refund and remove: ${title}` });
  await dialog.getByLabel("Reason").fill("Customer bought the wrong stage");
  await dialog.getByRole("button", { name: "Refund and remove" }).click();
  await expect(adminPage.getByTestId("licence").filter({ hasText: title })).toHaveCount(0);
  await adminContext.close();

  await page.goto("/my-tunes");
  await page.getByRole("tab", { name: "Payments" }).click();
  await expect(
    page
      .getByRole("table", { name: "Transactions" })
      .getByRole("row")
      .filter({ hasText: `Refund: Paid for ${title}` }),
  ).toContainText("€199.00");
});

test("a newly approved dealer sets up payouts in the sandbox before selling", async ({ page, request, emulator }) => {
  const email = newEmail("payouts");
  await emulator.createUser(email);
  const token = await emulator.idToken(email, PASSWORD);
  const applied = await request.post("/api/v1/dealers", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      businessName: "Payout Pending Ltd",
      address: "4 Spool Street, Derby DE1 1AA",
      registrationNumber: "55667788",
      phone: "+44 1332 496000",
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const approved = await request.patch(`/api/v1/dealers/${(await applied.json()).id}/status`, {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { status: "approved", reason: "Documents checked" },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(email, PASSWORD);
  await page.getByRole("tab", { name: "Sales and payments" }).click();
  await expect(page.getByTestId("payout-account")).toContainText("Set up a payout account to sell priced tunes");
  await page.getByRole("button", { name: "Set up payouts" }).click();
  await expect(page).toHaveURL(/\/payouts\/onboarding$/);
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  // Back on the list, which writes its paging and sort into the address as it shows.
  await expect(page).toHaveURL(/\/my-tunes(\?|$)/);
  await page.getByRole("tab", { name: "Sales and payments" }).click();
  await expect(page.getByTestId("payout-account")).toContainText("takes payments");
});
