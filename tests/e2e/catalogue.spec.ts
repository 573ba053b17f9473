import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect as baseExpect, test } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { CataloguePages } from "./pages/catalogue";
import { demoUsers, LoginPage } from "./pages/login-page";

// Every step waits on the server (uploads, a 50-row import, Monaco): a loaded CI machine needs more than 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PIDS = path.resolve(repoRoot, "../shared/fixtures/pids/vwflash-parameters_22.csv");

test("an admin adds a firmware with its stock file, sets up a second from its stock read, adds a vehicle, imported PIDs, a template of them and a computed channel", async ({
  page,
}) => {
  // A long flow through six pages, one of them loading Monaco.
  test.setTimeout(300_000);
  const firmwareId = `E2E${Date.now().toString(36).toUpperCase()}`;
  const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 4, firmwareId });
  const stockFile = path.join(mkdtempSync(path.join(tmpdir(), "catalogue-e2e-")), "stock.bin");
  writeFileSync(stockFile, demo.stock);

  await new LoginPage(page).open("/admin/firmware-support");
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page.getByRole("heading", { level: 2, name: "Firmware support" })).toBeVisible();
  const catalogue = new CataloguePages(page);

  const record = await catalogue.createFirmware({
    firmwareId,
    manufacturer: "Bosch",
    ecuFamily: "DEMO-ME7",
    imageSize: demo.firmware.imageSize,
    identify: demo.firmware.identify,
    checksums: demo.firmware.checksums,
  });
  await expect(record.getByText(firmwareId)).toBeVisible({ timeout: 30_000 });
  const sha = await catalogue.uploadStockFile(record, stockFile);
  await expect(sha).toHaveText(createHash("sha256").update(demo.stock).digest("hex"));
  await catalogue.closeDrawer("Firmware record");

  // A second firmware of the same layout, set up from its stock read: saved with no rules, it says it will
  // recognise nothing; its stock read takes no checksum check and says so; the first setup proposes the
  // part number printed in the read and the first record's schemes, which verify on it.
  const partNumber = `7L${Date.now()}`;
  const second = generateDemo({ size: 64 * 1024, itemCount: 2, patchEntries: 1, firmwareId: partNumber, seed: 5 });
  const secondFile = path.join(path.dirname(stockFile), "second.bin");
  writeFileSync(secondFile, second.stock);
  await page.getByRole("button", { name: "New firmware" }).click();
  await expect(page.getByText("this record will never recognise an image").first()).toBeVisible();
  const setupRecord = await catalogue.createFirmware({
    firmwareId: partNumber,
    manufacturer: "Bosch",
    ecuFamily: "DEMO-ME7",
    imageSize: second.firmware.imageSize,
    identify: [],
    checksums: [],
  });
  const setup = setupRecord.getByTestId("first-setup");
  await expect(setup).toBeVisible();
  await expect(setupRecord.getByTestId("no-checksum-warning")).toContainText("No checksum scheme");
  await catalogue.uploadStockFile(setupRecord, secondFile);
  const candidates = setup.getByRole("table", { name: "Identify candidates" });
  const candidate = candidates.getByRole("row").filter({ hasText: partNumber });
  await expect(candidate).toContainText("0x100");
  await candidate.getByRole("checkbox").check();
  await setup.getByRole("button", { name: "Use 1 as identify rules" }).click();
  await expect(setupRecord.getByRole("row", { name: /Identify rules/ }).first()).toContainText("1");
  await setup.getByRole("button", { name: "Next: checksum schemes" }).click();
  const schemes = setup.getByRole("list", { name: "Known checksum schemes" });
  await expect(schemes.getByRole("listitem").first()).toContainText("verifies");
  await expect(schemes).toContainText(`from ${firmwareId}`);
  await setup.getByRole("button", { name: /^Use \d+ checksum schemes$/ }).click();
  await expect(setupRecord.getByTestId("first-setup")).toBeHidden();
  await expect(setupRecord.getByTestId("no-checksum-warning")).toBeHidden();
  await catalogue.closeDrawer("Firmware record");

  await catalogue.addVehicle({
    make: "Volkswagen",
    model: "Polo GTI",
    engine: "EA888 2.0",
    yearFrom: 2018,
    ecu: "Simos 18.10",
    firmwareId,
  });
  await expect(page.getByRole("row", { name: /Polo GTI/ })).toContainText(firmwareId);

  const { form, preview } = await catalogue.importPids(PIDS);
  await expect(preview.getByRole("row", { name: /Engine Speed/ })).toContainText("ok");
  await expect(preview.getByRole("row", { name: /Boost/ })).toContainText("computed");
  // VW_Flash's "Calc HP" reads its own hp, which no channel provides: that row shows why.
  await expect(preview.getByRole("row", { name: /Calc HP/ })).toContainText("Unknown variable 'hp'");
  await form.getByRole("button", { name: /Import \d+ valid rows/ }).click();
  await expect(form.getByText(/\d+ imported/)).toBeVisible();
  await catalogue.closeDrawer("Import PID descriptors");
  await catalogue.search("Airflow");
  await expect(page).toHaveURL(/Airflow/);
  await expect(page.getByRole("row", { name: /Airflow/ }).first()).toBeVisible();

  const templateName = `Boost logging ${firmwareId}`;
  const template = await catalogue.buildTemplate({
    name: templateName,
    sampleRateHz: 20,
    firmwareId,
    channels: ["Engine Speed", "Airflow"],
  });
  const channels = template.getByLabel("Template channels").locator(".ant-list-items > .ant-list-item");
  await expect(channels).toHaveCount(2);
  // Logging order is the user's: the second channel moves up.
  await channels.nth(1).getByRole("button", { name: "Move up" }).click();
  await expect(channels.first()).toContainText("Airflow");
  await template.getByRole("button", { name: "Save" }).click();
  await expect(template).toBeHidden();
  const row = page.getByRole("row", { name: new RegExp(templateName) });
  await expect(row).toContainText("20");
  await expect(row).toContainText(firmwareId);

  const computed = await catalogue.newComputed("Boost gauge", "boost_gauge", "(map - amb_pres) * 0.145");
  const error = computed.getByTestId("expression-error");
  await expect(error).toContainText("Unknown variable 'amb_pres'");
  // "(map - " is 7 characters: the typo starts in column 8, and the editor underlines it there.
  await expect(error).toContainText("column 8");
  await expect(computed.locator(".squiggly-error")).toHaveCount(1);
});
