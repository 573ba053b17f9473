import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { MyTunesPage } from "./pages/my-tunes";
import { ReceiptView } from "./pages/receipt";

// The seeded demo firmware's tune, made again from the same generator options.
const demo = generateDemo(DEMO_TUNE_OPTIONS);

test("a dealer uploads a tune, reads its inspection, saves it and publishes it with a price", async ({ page }) => {
  const title = `Stage 2 ${randomBytes(3).toString("hex")}`;
  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const myTunes = new MyTunesPage(page);
  await expect(page.getByRole("heading", { level: 2, name: "My tunes" })).toBeVisible();

  const { upload, report } = await myTunes.inspect({ name: "stage2.bin", bytes: demo.tune.image });
  await expect(report.getByRole("row", { name: /Firmware/ })).toContainText(demo.firmware.firmwareId);
  await expect(report.getByText(`all ${demo.firmware.checksums.length} valid`)).toBeVisible();
  // The map-level diff names a map the demo tune changes.
  const changed = demo.firmware.definition.items.find((item) => item.id === demo.tune.changedItems[0])!;
  await expect(report.getByRole("table", { name: "Changes against stock" })).toContainText(changed.title);

  const tune = await myTunes.save(upload, { title, version: "2.0" });
  await expect(tune.getByRole("table", { name: "Versions" })).toContainText("2.0");
  await expect(tune).toContainText("not published");

  await myTunes.publish(tune, "349.50");
  await expect(tune).toContainText("€349.50");
  await tune.getByRole("button", { name: "Close" }).click();
  await expect(myTunes.catalogueRow(title)).toContainText("published");
  await expect(myTunes.catalogueRow(title)).toContainText("€349.50");
});

test("a customer sees the demo tune bought for their car, bakes it, and sees the app's flash of it", async ({
  page,
  request,
  emulator,
}) => {
  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(demoUsers.customer);
  const car = page.getByRole("table", { name: "Bought tunes" }).first();
  await expect(car).toContainText(demo.tune.title);
  const bakeAnswer = page.waitForResponse(
    (response) => /\/temp-bake\//.test(response.url()) && response.request().method() === "POST",
  );
  await car.getByRole("button", { name: "Bake" }).first().click();
  const bake = (await (await bakeAnswer).json()) as { id: string; vehicleId: string; sha256: string };
  const baked = page.getByRole("table", { name: "Baked files" }).first();
  await expect(baked).toContainText("tune v1");
  // The demo tune does not let buyers download it.
  await expect(baked).toContainText("flash from the app");
  // Rows are keyed by id: the seeded history has flashes of the same bytes.
  const bakeRow = baked.locator(`tr[data-row-key="${bake.id}"]`);
  await expect(bakeRow).toContainText(bake.sha256.slice(0, 16));
  await expect(bakeRow).toContainText("not flashed");

  // The app flashes the bake and reports it; the page shows it on the bake and in the history.
  const headers = { authorization: `Bearer ${await emulator.idToken(demoUsers.customer, DEMO_PASSWORD)}` };
  const flash = await request.post(`/api/v1/user-vehicles/${bake.vehicleId}/flash-logs`, {
    headers,
    data: { bakedTuneFileId: bake.id, sha256: bake.sha256, result: "success", durationMs: 84_000 },
  });
  expect(flash.status(), await flash.text()).toBe(201);
  const flashId = ((await flash.json()) as { id: string }).id;
  await page.reload();
  await expect(bakeRow.getByText(/^flashed \d/)).toBeVisible();
  const flashed = page.getByRole("table", { name: "Flash history" }).first().locator(`tr[data-row-key="${flashId}"]`);
  await expect(flashed).toContainText(bake.sha256.slice(0, 16));
  await expect(flashed).toContainText(`${demo.tune.title} v1`);
  await expect(flashed).toContainText("success");
});

test("a customer reopens the receipt of a tune they paid for from My tunes", async ({ page, request, emulator }) => {
  // The demo dealer publishes a tune for the demo firmware; the customer buys it for the demo car in the sandbox.
  const title = `Stage 3 ${randomBytes(3).toString("hex")}`;
  const dealer = { authorization: `Bearer ${await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD)}` };
  const uploaded = await request.post("/api/v1/tune-files", {
    headers: dealer,
    multipart: {
      title,
      file: { name: "stage3.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.tune.image) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const tuneFileId = (await uploaded.json()).id;
  const published = await request.put(`/api/v1/tune-files/${tuneFileId}/publish`, {
    headers: dealer,
    data: { priceCents: 12900, currency: "EUR" },
  });
  expect(published.status(), await published.text()).toBe(200);
  const customer = { authorization: `Bearer ${await emulator.idToken(demoUsers.customer, DEMO_PASSWORD)}` };
  const cars = (await (await request.get("/api/v1/user-vehicles", { headers: customer })).json()) as {
    data: { id: string; name: string }[];
  };
  const vehicleId = cars.data.find((car) => car.name === "Demo hatchback")?.id;
  const ordered = await request.post("/api/v1/payments/tune-file-order", {
    headers: customer,
    data: { tuneFileId, vehicleId },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);
  const orderId = (await ordered.json()).order.id as string;
  const paid = await request.post("/api/v1/payments/sandbox/pay", {
    headers: customer,
    data: { orderId, cardNumber: "4242 4242 4242 4242" },
  });
  expect((await paid.json()).status).toBe("succeeded");

  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(demoUsers.customer);
  const bought = page.getByRole("table", { name: "Bought tunes" }).first();
  const row = bought.getByRole("row").filter({ hasText: title });
  // The seeded demo tune was granted, not bought: it has no receipt.
  await expect(bought.getByRole("row").filter({ hasText: demo.tune.title }).getByRole("link")).toHaveCount(0);
  await row.getByRole("link", { name: "Receipt" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/${orderId}$`));
  await new ReceiptView(page).expectLines({ Order: orderId, Tune: title, Amount: "€129.00 (EUR)" });
});
