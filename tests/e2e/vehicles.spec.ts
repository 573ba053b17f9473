import { createHash } from "node:crypto";
import { expect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { PhoneApp } from "./pages/phone-app";
import { VehiclePage } from "./pages/vehicles";

const demo = generateDemo(DEMO_TUNE_OPTIONS);
const stockSha256 = createHash("sha256").update(demo.stock).digest("hex");

test("a customer sees the demo car with its history, and changes its nickname, refused when empty", async ({
  page,
}) => {
  await new LoginPage(page).open("/my-devices");
  await new LoginPage(page).signIn(demoUsers.customer);
  const card = page.locator("[data-testid^=vehicle-card-]").filter({ hasText: "Demo hatchback" });
  await expect(card).toContainText("supported");
  await expect(card).toContainText("success");
  const vehicle = new VehiclePage(page);
  await vehicle.openFromList("Demo hatchback");
  await expect(page.getByText("DEMO-ECU-000001")).toBeVisible();
  // The seeded history: a flash, a failure recovered by a stock write, the tune again. Other specs
  // add connects and bakes to this car, so its flashes are found as a user would, by the filter.
  await page.getByRole("group", { name: "Show only" }).getByText("Flashes", { exact: true }).click();
  await expect(page.getByTestId("timeline-back-to-stock")).toContainText("Back to stock");
  await vehicle.openTab("Flashes");
  await expect(page.getByRole("table", { name: "Flash history" })).toContainText("recovered");
  await vehicle.openTab("Snapshots");
  await expect(page.getByTestId("snapshot").first()).toBeVisible();

  const form = page.getByRole("form", { name: "Your notes on the car" });
  await form.getByLabel("Nickname").fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("the nickname is empty")).toBeVisible();
  await form.getByLabel("Nickname").fill("Demo hatchback");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Vehicle saved").first()).toBeVisible();
});

test("on a phone the timeline groups repeated connects, shows older entries on demand and narrows to one kind", async ({
  page,
  request,
  emulator,
}) => {
  // A car of the customer's with a long history: a connect, the stock read, 24 connects that each
  // brought or cleared a fault code, then 12 that changed nothing.
  const token = await emulator.idToken(demoUsers.customer, DEMO_PASSWORD);
  const headers = { authorization: `Bearer ${token}` };
  const vin = `WTLNZZZ${String(Date.now()).slice(-10)}`;
  const connect = async (faultCodes: string[]) => {
    const answer = await request.post("/api/v1/user-vehicles/connect", {
      headers,
      data: {
        vin,
        ecu: { softwareId: demo.firmware.firmwareId, ecuSerial: `ECU-${vin}` },
        adapter: { kind: "virtual", firmware: "1.0" },
        appVersion: "2.4.0",
        batteryVolts: 12.6,
        faultCodes,
      },
    });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return (await answer.json()).vehicle.id as string;
  };
  const vehicleId = await connect([]);
  const stock = await request.post(`/api/v1/user-vehicles/${vehicleId}/upload-tune-dump/0`, {
    headers,
    multipart: { file: { name: "stock.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.stock) } },
  });
  expect(stock.status(), await stock.text()).toBe(200);
  for (let i = 0; i < 24; i++) await connect(i % 2 ? [`P${1000 + i}`] : []);
  for (let i = 0; i < 12; i++) await connect([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await new LoginPage(page).open(`/my-devices/${vehicleId}`);
  await new LoginPage(page).signIn(demoUsers.customer);
  const vehicle = new VehiclePage(page);
  const entries = vehicle.timelineEntries();
  await expect(entries.first()).toContainText("Connected with the app");
  await expect(entries.first().getByLabel("12 times")).toHaveText("×12");
  await expect(entries).toHaveCount(20);
  // The filter's tags fit the phone's width in at most two rows.
  const filter = await page.getByRole("group", { name: "Show only" }).boundingBox();
  expect(filter!.width).toBeLessThanOrEqual(390);
  expect(filter!.height).toBeLessThan(70);
  // The timeline's part of the page is one page of grouped entries, not every record.
  const history = await page
    .locator(".ant-card")
    .filter({ has: page.getByRole("tab", { name: "Timeline" }) })
    .boundingBox();
  // With every record listed, this car's page measured over 6,000 px at this size, most of it the
  // history; the rest of the page grows with what other specs leave on the account, so only the
  // history's part is bounded.
  expect(history!.height).toBeLessThan(1900);

  await entries.first().getByRole("button", { name: "Show each of 12" }).click();
  await expect(entries.first().getByRole("list", { name: "Each time" }).getByRole("listitem")).toHaveCount(12);
  await vehicle.showOlder();
  await expect(entries).toHaveCount(27);
  await expect(page.getByTestId("timeline-stock-read")).toContainText("Stock read uploaded");
  await expect(page.getByRole("button", { name: "Show older" })).toBeHidden();

  await vehicle.showOnly("Stock read");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText("Stock read uploaded");
  await vehicle.showOnly("All");
  await expect(entries).toHaveCount(20);
});

test("a customer sees the app's refused pre-flight, flashes the demo tune with live progress, sees it in the timeline, and goes back to stock", async ({
  page,
  request,
  emulator,
}) => {
  await new LoginPage(page).open("/my-devices");
  await new LoginPage(page).signIn(demoUsers.customer);
  const vehicle = new VehiclePage(page);
  const vehicleId = await vehicle.openFromList("Demo hatchback");
  const bake = await vehicle.bakeAndFlash(demo.tune.title);
  await expect(vehicle.handover()).toHaveAttribute(
    "href",
    `tuningportal://flash?vehicle=${vehicleId}&kind=tune&bake=${bake.id}`,
  );
  await expect(page.getByLabel("QR code for the app")).toBeVisible();

  const app = new PhoneApp(request, await emulator.idToken(demoUsers.customer, DEMO_PASSWORD));
  // The app measures 11.4 V: its pre-flight is refused, and the page says why.
  expect(await app.preflight({ vehicleId, kind: "tune", bakedTuneFileId: bake.id, sha256: bake.sha256 }, 11.4)).toBe(
    409,
  );
  await expect(page.getByTestId("app-preflight")).toContainText("The app's pre-flight refused the flash: battery");
  await expect(page.getByTestId("app-preflight")).toContainText("11.4");
  const flashing = app.flash({ vehicleId, kind: "tune", bakedTuneFileId: bake.id, sha256: bake.sha256 });
  await expect(vehicle.liveStatus()).toHaveText(/block 1 · (25|50|75) %/);
  await flashing;
  await expect(page.getByTestId("flash-done")).toContainText(`${demo.tune.title} is on the car`);
  // The flash is over: the link is spent, and the step table has every step ended, with its time and bytes.
  await expect(vehicle.handover()).toBeHidden();
  const steps = page.getByTestId("live-flash").getByRole("table", { name: "Flash steps" });
  await expect(steps.getByRole("row").filter({ hasText: "erasing" })).toContainText("3101FF0001 → 7101FF0000");
  await expect(steps.getByRole("row").filter({ hasText: "erasing" })).toContainText("1800");
  await expect(steps).not.toContainText("started");
  await vehicle.openTab("Timeline");
  await expect(page.getByTestId("timeline-flash").first()).toContainText(`Flashed ${demo.tune.title}`);

  await page.getByTestId("back-to-stock").click();
  await expect(vehicle.handover()).toHaveAttribute("href", `tuningportal://flash?vehicle=${vehicleId}&kind=stock`);
  await app.flash({ vehicleId, kind: "stock", sha256: stockSha256 });
  await expect(page.getByTestId("flash-done")).toContainText("back on its stock read");
  // The rest of the page follows the flash without a reload.
  await expect(page.getByTestId("on-the-car")).toHaveText("stock");
  await expect(page.getByTestId("timeline-back-to-stock").first()).toContainText("Back to stock");
});

test("a flash that fails mid-transfer is recovered from the page by writing the stock read back", async ({
  page,
  request,
  emulator,
}) => {
  await new LoginPage(page).open("/my-devices");
  await new LoginPage(page).signIn(demoUsers.customer);
  const vehicle = new VehiclePage(page);
  const vehicleId = await vehicle.openFromList("Demo hatchback");
  const bake = await vehicle.bakeAndFlash(demo.tune.title);
  const app = new PhoneApp(request, await emulator.idToken(demoUsers.customer, DEMO_PASSWORD), 150);
  const failedId = await app.flash({
    vehicleId,
    kind: "tune",
    bakedTuneFileId: bake.id,
    sha256: bake.sha256,
    failAtPercent: 50,
  });
  const recovery = page.getByTestId("recovery");
  await expect(recovery).toContainText("The last flash failed at block 1");
  // The customer comes back to the page later: it has never seen the failed session live.
  await page.reload();
  await expect(recovery.getByRole("button", { name: "Resume from block 1" })).toBeVisible();
  await recovery.getByRole("button", { name: "Recover: back to stock" }).click();
  await expect(vehicle.handover()).toHaveAttribute(
    "href",
    `tuningportal://flash?vehicle=${vehicleId}&kind=stock&recovers=${failedId}`,
  );
  await app.flash({ vehicleId, kind: "stock", sha256: stockSha256, recoversId: failedId });
  await expect(page.getByTestId("flash-done")).toContainText("Stock is on the car");
  const live = page.getByTestId("live-flash");
  await expect(vehicle.liveStatus()).toHaveText("success");
  await expect(live).toContainText("Writing the stock read");
  await expect(live.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(live.getByRole("table", { name: "Flash steps" })).toContainText("done");
  await expect(page.getByTestId("on-the-car")).toHaveText("stock");
  await vehicle.openTab("Flashes");
  await expect(page.getByRole("table", { name: "Flash history" }).getByRole("row").nth(2)).toContainText("recovered");
});

test("an admin reads the flashing analytics and opens a failed session with its steps", async ({ page }) => {
  await new LoginPage(page).open("/admin/flashing-overview");
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page.getByRole("heading", { level: 2, name: "Flashing overview" })).toBeVisible();
  await expect(page.getByText("Success rate", { exact: true })).toBeVisible();
  const responses = page.getByRole("table", { name: "Top negative responses" });
  await expect(responses).toContainText("0x72 generalProgrammingFailure");
  await responses.getByRole("row").filter({ hasText: "0x72" }).click();
  await expect(page.getByText("Sessions: 0x72 generalProgrammingFailure")).toBeVisible();
  const sessions = page.getByRole("table", { name: "Flash sessions" });
  await expect(sessions.getByRole("row").nth(1)).toContainText("0x72");
  await sessions.getByRole("row").nth(1).click();
  const drawer = page.getByRole("dialog", { name: "Flash session" });
  await expect(drawer.getByRole("table", { name: "Flash steps" })).toBeVisible();
  await expect(drawer).toContainText("0x72");
  await expect(drawer.getByRole("link", { name: "Download the support bundle" })).toHaveAttribute(
    "href",
    /\/flash-log\/.+\/bundle$/,
  );
});
