import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { PhoneApp } from "./pages/phone-app";
import { VehiclePage } from "./pages/vehicles";

const demo = generateDemo(DEMO_TUNE_OPTIONS);

/** A pull logged by the app on the car, uploaded as the app does. */
async function logPull(request: APIRequestContext, token: string, vehicleId: string, title: string) {
  const rows = [
    "Time (s),Engine speed (rpm),Boost (kPa)",
    ...Array.from({ length: 40 }, (_, i) => `${(i / 10).toFixed(1)},${2000 + i * 100},${100 + i * 3}`),
  ].join("\n");
  const answer = await request.post("/api/v1/data-logs", {
    headers: { authorization: `Bearer ${token}` },
    multipart: { title, vehicleId, file: { name: `${title}.csv`, mimeType: "text/csv", buffer: Buffer.from(rows) } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).id as string;
}

/** Picks an option of an antd select opened from the keyboard (a drawer's header may cover a click). */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  const select = scope.getByRole("combobox", { name, exact: true });
  await select.focus();
  await select.press("ArrowDown");
  await page.locator(".ant-select-dropdown:visible").getByText(option, { exact: false }).first().click();
}

/** Adds an option to an antd multiple select by typing it, then leaves the select so its list closes (Escape would close the drawer, Tab unselect it). */
async function add(scope: Locator, name: string, option: string) {
  const select = scope.getByRole("combobox", { name, exact: true });
  await select.focus();
  await scope.page().keyboard.type(option);
  await scope.page().keyboard.press("Enter");
  await scope.locator(".ant-select-selection-item").filter({ hasText: option }).waitFor();
  // Tab would choose the highlighted option again (unselecting it): click away instead.
  await scope.page().locator(".ant-drawer-title:visible").last().click();
}

test("a custom tune end to end: asked with a log, quoted, paid in the sandbox, delivered, flashed on the virtual car, a second revision asked with a new log, accepted", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  test.setTimeout(180_000);
  const customerToken = await emulator.idToken(demoUsers.customer, DEMO_PASSWORD);

  // The customer asks from the car's page, with a log of the car attached.
  await new LoginPage(page).open("/my-devices");
  await new LoginPage(page).signIn(demoUsers.customer);
  const vehicle = new VehiclePage(page);
  const vehicleId = await vehicle.openFromList("Demo hatchback");
  await logPull(request, customerToken, vehicleId, "Third gear pull");
  await page.getByRole("button", { name: "Ask a dealer for a custom tune" }).click();
  const ask = page.getByRole("form", { name: "Ask for a custom tune" });
  await ask.getByRole("button", { name: "Send the request" }).click();
  await expect(ask.getByText("dealerId must be a dealer's id")).toBeVisible();
  await choose(page, ask, "Dealer", "Demo Performance Ltd");
  await choose(page, ask, "Fuel", "E85");
  await ask.getByLabel("Intake").fill("Eventuri carbon");
  await ask.getByLabel("Target power").fill("410");
  await ask.getByLabel("Notes for the dealer").fill("Weekend car, some track days");
  await add(ask, "Logs to attach", "Third gear pull");
  await ask.getByRole("button", { name: "Send the request" }).click();
  const ticket = page.getByTestId("tuning-request");
  await expect(ticket).toContainText("asked");
  const reference = (await ticket.getByRole("heading", { level: 4 }).textContent())!;
  expect(reference).toMatch(/^TR-\d+$/);
  await expect(ticket).toContainText("Third gear pull");

  // The dealer finds it in the queue and quotes; the customer's open ticket shows the quote by itself.
  const dealerContext = await browser.newContext();
  const dealer = await dealerContext.newPage();
  await new LoginPage(dealer).open("/tuning-requests");
  await new LoginPage(dealer).signIn(demoUsers.dealer);
  // A late ticket is marked in the queue: the demo data's, paid five days ago for four days' work.
  const queue = dealer.getByRole("table", { name: "Tuning requests" });
  const segment = (label: string) =>
    dealer.locator(".ant-segmented-item").filter({ hasText: new RegExp(`^${label}$`) });
  const late = queue.getByRole("row").filter({ has: dealer.getByTestId("late") });
  await expect(late.first()).toContainText("Sam (calibration)");
  await expect(queue.getByRole("row").filter({ hasText: reference }).getByTestId("late")).toHaveCount(0);
  // The "Late" view lists the late ones alone; "Due first" puts the late one at the top of the open ones.
  await segment("Late").click();
  await expect(queue.getByRole("row").filter({ hasText: reference })).toHaveCount(0);
  await expect(late.first()).toBeVisible();
  await segment("Open").click();
  await segment("Due first").click();
  await expect(queue.getByRole("row").nth(1).getByTestId("late")).toBeVisible();
  await queue.getByText(reference, { exact: true }).click();
  const dealerTicket = dealer.getByTestId("tuning-request");
  await expect(dealerTicket).toContainText("E85");
  await expect(dealerTicket).toContainText("Eventuri carbon");
  await expect(dealerTicket.getByRole("link", { name: "Third gear pull" }).first()).toBeVisible();
  const quote = dealerTicket.getByRole("form", { name: "Quote" });
  await quote.getByLabel("Price").fill("350");
  await quote.getByLabel("Ready in days").fill("4");
  await quote.getByRole("button", { name: "Send the quote" }).click();
  await expect(dealerTicket.locator(".ant-tag").filter({ hasText: "quoted" })).toBeVisible();
  await expect(ticket.locator(".ant-tag").filter({ hasText: "quoted" })).toBeVisible();
  // Both sides read when it is due: the quote's day plus the 4 days.
  const due = `due ${new Date(Date.now() + 4 * 86_400_000).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" })}`;
  await expect(ticket.getByTestId("due-date")).toHaveText(due);
  await expect(dealerTicket.getByTestId("due-date")).toHaveText(due);

  // The customer pays in the sandbox and comes back to the ticket.
  await ticket.getByRole("button", { name: /Pay €350\.00/ }).click();
  await expect(page).toHaveURL(/\/checkout\//);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /Pay €350\.00/ }).click();
  await expect(page.getByText("is paid: the dealer starts work")).toBeVisible();
  await page.getByRole("link", { name: "Back to the car" }).click();
  await expect(ticket.locator(".ant-tag").filter({ hasText: "paid" })).toBeVisible();
  // Opened by the link's `?request=`, the ticket closes with Escape, and opens again from the car's list.
  await page.keyboard.press("Escape");
  await expect(ticket).toBeHidden();
  await page.getByRole("table", { name: "Tuning requests" }).getByText(reference, { exact: true }).click();
  await expect(ticket.locator(".ant-tag").filter({ hasText: "paid" })).toBeVisible();

  // The dealer starts and delivers revision 1.
  await expect(dealerTicket.locator(".ant-tag").filter({ hasText: "paid" })).toBeVisible();
  await expect(dealerTicket.getByText("moves the request to in progress")).toBeVisible();
  await dealerTicket.getByRole("button", { name: "Start work" }).click();
  await expect(dealerTicket.locator(".ant-tag").filter({ hasText: "in progress" })).toBeVisible();
  // "Deliver revision 1" opens a dialog saying what the file must be; a file of the wrong size is
  // refused in the request's terms before anything is delivered (the demo firmware is made at 512 KiB).
  await dealerTicket.getByRole("button", { name: "Deliver revision 1" }).click();
  const delivery = dealer.getByRole("dialog", { name: `Deliver revision 1: ${reference}` });
  await expect(delivery).toContainText(`The file must be firmware ${demo.firmware.firmwareId} at 512 KiB`);
  const deliverButton = delivery.getByRole("button", { name: "Deliver revision 1" });
  await expect(deliverButton).toBeDisabled();
  const doubled = Buffer.alloc(1024 * 1024);
  doubled.set(demo.tune.image);
  await delivery
    .locator("input[type=file]")
    .setInputFiles({ name: "wrong-car.bin", mimeType: "application/octet-stream", buffer: doubled });
  await expect(delivery.getByRole("alert")).toContainText(
    `This request is for ${demo.firmware.firmwareId} (512 KiB); this file is 1 MiB`,
  );
  await expect(deliverButton).toBeDisabled();
  await delivery
    .locator("input[type=file]")
    .setInputFiles({ name: "rev1.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.tune.image) });
  await expect(delivery.getByRole("status")).toContainText(
    `The file fits: ${demo.firmware.firmwareId}, 512 KiB, ${demo.firmware.checksums.length} checksums valid`,
  );
  await expect(dealerTicket.getByTestId("revision")).toHaveCount(0);
  await delivery.getByLabel("Revision note").fill("Stage 2 base for E85");
  await deliverButton.click();
  await expect(delivery).toBeHidden();
  await expect(dealerTicket.getByTestId("revision")).toHaveCount(1);

  // The customer reads the map changes, flashes revision 1 on the virtual car and logs it.
  await expect(ticket.getByTestId("revision")).toHaveCount(1);
  await expect(ticket.getByRole("table", { name: "Revision 1 against stock" })).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  const bake = await vehicle.bakeAndFlash(`Custom tune ${reference}`);
  const app = new PhoneApp(request, customerToken, 50);
  await app.flash({ vehicleId, kind: "tune", bakedTuneFileId: bake.id, sha256: bake.sha256 });
  await expect(page.getByTestId("flash-done")).toContainText(`Custom tune ${reference}`);
  await logPull(request, customerToken, vehicleId, "Revision 1 pull");

  // Revision 2, asked with the new log.
  await page.getByRole("table", { name: "Tuning requests" }).getByText(reference, { exact: true }).click();
  const revision = ticket.getByRole("form", { name: "Ask for a revision" });
  await revision.getByLabel("What should change").fill("Knock above 5,500 rpm in 3rd, see the new log");
  await add(revision, "New logs", "Revision 1 pull");
  await revision.getByRole("button", { name: "Ask for revision 2" }).click();
  await expect(ticket.locator(".ant-tag").filter({ hasText: "revision asked" })).toBeVisible();

  await expect(dealerTicket.locator(".ant-tag").filter({ hasText: "revision asked" })).toBeVisible();
  await expect(dealerTicket.getByRole("link", { name: "Revision 1 pull" }).first()).toBeVisible();
  const second = new Uint8Array(demo.tune.image);
  second[demo.firmware.definition.items.length] ^= 0x01;
  // Changed by hand, its checksums fail until the dealer lets the portal fix them.
  await dealerTicket.getByRole("button", { name: "Deliver revision 2" }).click();
  const secondDelivery = dealer.getByRole("dialog", { name: `Deliver revision 2: ${reference}` });
  await secondDelivery.getByLabel("Revision note").fill("Less timing above 5,500 rpm");
  await secondDelivery
    .locator("input[type=file]")
    .setInputFiles({ name: "rev2.bin", mimeType: "application/octet-stream", buffer: Buffer.from(second) });
  await expect(secondDelivery.getByRole("alert")).toContainText("fails checksum");
  await secondDelivery.getByText("Fix failing checksums").click();
  await expect(secondDelivery.getByRole("status")).toContainText("fixed by the portal");
  await secondDelivery.getByRole("button", { name: "Deliver revision 2" }).click();
  await expect(dealerTicket.getByTestId("revision")).toHaveCount(2);
  // Escape closes the queue's drawer; the queue shows the due day.
  await dealer.keyboard.press("Escape");
  await expect(dealerTicket).toBeHidden();
  await expect(
    dealer.getByRole("table", { name: "Tuning requests" }).getByRole("row").filter({ hasText: reference }),
  ).toContainText(due.replace("due ", ""));
  await dealerContext.close();

  await expect(ticket.getByTestId("revision")).toHaveCount(2);
  await ticket.getByRole("button", { name: "Accept revision 2" }).click();
  await page.getByRole("button", { name: "Accept", exact: true }).click();
  await expect(ticket.locator(".ant-tag").filter({ hasText: "accepted" })).toBeVisible();
  await expect(ticket.getByTestId("thread-entry").last()).toContainText("moved it to accepted");
});
