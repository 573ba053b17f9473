import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generateDemo } from "../../server/domain/tune";
import { DEMO_TUNE_OPTIONS } from "../../server/seed-tunes";
import { LoginPage, demoUsers } from "./pages/login-page";
import { MyTunesPage } from "./pages/my-tunes";

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

test("a customer sees the demo tune bought for their car and bakes it", async ({ page }) => {
  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(demoUsers.customer);
  const car = page.getByRole("table", { name: "Bought tunes" }).first();
  await expect(car).toContainText(demo.tune.title);
  await car.getByRole("button", { name: "Bake" }).first().click();
  await expect(page.getByRole("table", { name: "Baked files" }).first()).toContainText("tune v1");
  // The demo tune does not let buyers download it.
  await expect(page.getByRole("table", { name: "Baked files" }).first()).toContainText("flash from the app");
});
