import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { CataloguePages } from "./pages/catalogue";
import { demoUsers, LoginPage } from "./pages/login-page";
import { TuneViewerPage } from "./pages/tune-viewer";

// Uploads and an import preview wait on the server: a loaded CI machine needs more than 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** A real TunerPro XDF and the ECU read it describes (BMW 540i, Bosch ME7.2), read where they are kept, never copied. */
const XDF = path.resolve(repoRoot, "../shared/fixtures/definitions/me72-540i-5A01.xdf");
const IMAGE = path.resolve(repoRoot, "../shared/fixtures/images/me72-540i-5A01.bin");

/**
 * Signs in as the admin and creates a firmware record for the image at `imagePath`, told by its
 * first 32 bytes, with the image as its stock file (its SHA-256 checked as shown).
 */
async function recordWithStockFile(
  page: Page,
  imagePath: string,
  names: { prefix: string; manufacturer: string; ecuFamily: string },
) {
  const image = readFileSync(imagePath);
  const firmwareId = `${names.prefix}${Date.now().toString(36).toUpperCase()}`;
  await new LoginPage(page).open("/admin/firmware-support");
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page.getByRole("heading", { level: 2, name: "Firmware support" })).toBeVisible();
  const catalogue = new CataloguePages(page);
  const record = await catalogue.createFirmware({
    firmwareId,
    manufacturer: names.manufacturer,
    ecuFamily: names.ecuFamily,
    imageSize: image.length,
    // The image's first 32 bytes tell it from every other record.
    identify: [{ address: "0x0", bytes: image.subarray(0, 32).toString("hex").toUpperCase() }],
    checksums: [],
  });
  await expect(record.getByText(firmwareId)).toBeVisible();
  const sha = await catalogue.uploadStockFile(record, imagePath);
  await expect(sha).toHaveText(createHash("sha256").update(image).digest("hex"));
  return { catalogue, record, firmwareId };
}

test("an admin imports a real XDF into a firmware record: the preview counts items, skips and patches and shows maps from the stock file; saved, the tune viewer opens the record's stock file with its maps", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const { catalogue, record, firmwareId } = await recordWithStockFile(page, IMAGE, {
    prefix: "XDF",
    manufacturer: "Bosch",
    ecuFamily: "ME7.2",
  });

  const preview = await catalogue.previewDefinition(record, XDF);
  // Counted by hand in the file (DEFINITIONS.md): 59 items, its patch, and the checksum plugin we cannot run.
  await expect(preview.getByTestId("preview-items")).toContainText("59 items");
  await expect(preview.getByText("TunerPro XDF", { exact: true })).toBeVisible();
  await expect(preview.getByTestId("preview-skipped")).toHaveText("1 skipped");
  await expect(
    preview.getByRole("table", { name: "Skipped elements" }).getByRole("row", { name: /ME7 Checksum/ }),
  ).toContainText("not supported: ME7 Checksum (TunerPro plugin");
  const patch = preview
    .getByRole("table", { name: "Patches found" })
    .getByRole("row", { name: /RPM Limiter Patch - 6500/ });
  await expect(patch.getByRole("checkbox")).toBeChecked();
  // Maps read from the stock file on the server: the 2-D tables hold numbers, not blanks.
  const samples = preview.getByTestId("preview-sample");
  await expect(samples.first()).toBeVisible();
  expect(await samples.count()).toBeGreaterThanOrEqual(2);
  await expect(samples.first().getByRole("table", { name: "Map values" }).locator("td").first()).toHaveText(/^-?\d/);

  // The patch is left out this time: only what is ticked is stored.
  await patch.getByRole("checkbox").uncheck();
  await expect(record.getByRole("button", { name: "Save definition, 0 checksums and 0 patches" })).toBeVisible();
  await patch.getByRole("checkbox").check();
  const saved = await catalogue.saveDefinition(record);
  await expect(saved).toContainText("Saved: 59 maps, 0 checksum schemes and 1 patch");
  await expect(saved).toContainText("Patches stored: RPM Limiter Patch - 6500");
  await expect(record.getByRole("row", { name: /Definition/ }).first()).toContainText("59 maps");

  // The tune viewer offers the record's own stock file, read with the imported definition: no local copy
  // needed. Idle speed falls as the engine warms.
  await page.goto("/tuning-tools/tune-viewer");
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(`Stock file · ${firmwareId}`);
  await expect(page.getByText(`Stock file of ${firmwareId}`)).toBeVisible();
  await expect(viewer.maps()).toBeVisible();
  await viewer.search("Optimal IDLE RPM neutral");
  await viewer.openMap("Optimal IDLE RPM neutral/park");
  await expect(viewer.grid().locator("tbody td")).toHaveText(["1000", "800", "600", "550"]);
});

/** A definition of 2.9 MB, over the 1 MiB a JSON body may have: the page sends it as a file. */
const MS45_XDF = path.resolve(repoRoot, "../shared/fixtures/definitions/ms45.xdf");
const MS45_IMAGE = path.resolve(repoRoot, "../shared/fixtures/images/ms45.bin");

test("an admin imports the 2.9 MB MS45 XDF from the page: the preview counts its items and categories, and saving stores them", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const { catalogue, record } = await recordWithStockFile(page, MS45_IMAGE, {
    prefix: "MS45",
    manufacturer: "Siemens",
    ecuFamily: "MS45",
  });

  const preview = await catalogue.previewDefinition(record, MS45_XDF);
  // Counted with grep in the file: 1056 <XDFTABLE and 3065 <XDFCONSTANT elements, 302 <CATEGORY lines.
  await expect(preview.getByTestId("preview-items")).toContainText("4121 items");
  await expect(preview.getByTestId("preview-categories")).toHaveText("302");
  await expect(preview.getByTestId("preview-skipped")).toHaveText("0 skipped");
  await expect(preview.getByTestId("preview-sample").first()).toBeVisible();

  const saved = await catalogue.saveDefinition(record);
  await expect(saved).toContainText("Saved: 4121 maps, 0 checksum schemes and 0 patches");
  await expect(record.getByRole("row", { name: /Definition/ }).first()).toContainText("4121 maps");
});
