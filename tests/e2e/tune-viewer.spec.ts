import { expect } from "@playwright/test";
import { fixAll, generateDemo, readCell, verifyAll, writeCell } from "../../server/domain/tune";
import { DEMO_TUNE_OPTIONS } from "../../server/seed-tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, LoginPage, demoUsers } from "./pages/login-page";
import { TuneViewerPage } from "./pages/tune-viewer";

// The seeded demo firmware's tune, made again from the same generator options.
const demo = generateDemo(DEMO_TUNE_OPTIONS);
const { items } = demo.firmware.definition;
const changed = items.find((item) => item.id === demo.tune.changedItems.find((id) => items.find((i) => i.id === id)?.kind === "table2d"))!;
const other = items.find((item) => item.kind === "table1d")!;

test("a buyer opens the demo tune, switches maps, searches and compares a changed map with stock", async ({ page }) => {
  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.customer);
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(demo.tune.title);

  // Flash-and-view protection: the checksum report and the maps, opened on a changed map.
  await expect(page.getByTestId("inspection-report")).toBeVisible();
  await expect(viewer.maps().getByText("changed").first()).toBeVisible();
  await viewer.openMap(changed.title);
  await expect(viewer.grid()).toBeVisible();
  await expect(page.getByTestId("map-range")).toContainText("min");

  await viewer.openMap(other.title);
  await expect(page.getByTestId("map-chart")).toBeVisible();

  await viewer.search(changed.title);
  await expect(viewer.mapEntry(other.title)).toHaveCount(0);
  await viewer.openMap(changed.title);

  await viewer.compareWithStock();
  await expect(viewer.grid()).toContainText("%)");
  await expect(page).toHaveURL(/mode=stock/);
});

test("the dealer edits a cell of the demo tune and saves it: only that cell's bytes change and the checksums are fixed", async ({ page, request, emulator }) => {
  const headers = { authorization: `Bearer ${await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD)}` };
  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(demo.tune.title);
  await viewer.openMap(changed.title);
  const tuneId = new URL(page.url()).searchParams.get("tune");
  const download = await request.get(`/api/v1/tune-files/${tuneId}/download`, { headers });
  expect(download.status(), await download.text()).toBe(200);
  const before = new Uint8Array(await download.body());

  await viewer.edit();
  await viewer.cell(1, 1).click();
  await viewer.apply("Add", 1);
  const expected = Uint8Array.from(before);
  writeCell(expected, changed, 1, 1, readCell(before, changed, 1, 1) + 1);
  await expect(viewer.cell(1, 1)).toContainText(String(Math.round(readCell(expected, changed, 1, 1) * 1000) / 1000));

  // A value beyond the map's limits is refused at the cell, and nothing changes.
  await viewer.apply("Set", 1e9);
  await expect(page.getByTestId("map-editor").getByRole("alert")).toBeVisible();

  const report = await viewer.save("e2e edit");
  await expect(report.getByRole("table")).toBeVisible();

  const detail = await (await request.get(`/api/v1/tune-files/${tuneId}`, { headers })).json();
  const saved = detail.versions.find((v: { number: number }) => v.number === detail.currentVersion);
  expect(saved.label).toBe("e2e edit");
  expect(saved.checksums.every((c: { valid: boolean }) => c.valid)).toBe(true);
  const after = new Uint8Array(await (await request.get(`/api/v1/tune-files/${tuneId}/download`, { headers })).body());
  expect(verifyAll(after, demo.firmware.checksums).every((c) => c.valid)).toBe(true);
  // The cell's new bytes, then the checksums fixed as the server fixes them: nothing else may differ.
  fixAll(expected, demo.firmware.checksums);
  expect(Buffer.from(after).equals(Buffer.from(expected)), "the saved image differs from the previous one by more than the cell and its checksums").toBe(true);
});
