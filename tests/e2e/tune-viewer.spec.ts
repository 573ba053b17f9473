import { type APIRequestContext, expect } from "@playwright/test";
import { fixAll, itemExtents, readCell, verifyAll, writeCell } from "../../domain/tune";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { LayoutProbe } from "./pages/layout-probe";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { TuneViewerPage } from "./pages/tune-viewer";

// The seeded demo firmware's tune, made again from the same generator options.
const demo = generateDemo(DEMO_TUNE_OPTIONS);
const { items } = demo.firmware.definition;
const changed = items.find(
  (item) => item.id === demo.tune.changedItems.find((id) => items.find((i) => i.id === id)?.kind === "table2d"),
)!;
const other = items.find((item) => item.kind === "table1d")!;
// A constant the demo tune leaves alone, with a maximum to be refused beyond.
const constant = items.find(
  (item) => item.kind === "constant" && item.z.max !== undefined && !demo.tune.changedItems.includes(item.id),
)!;

async function demoTuneId(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  const list = await (await request.get(`/api/v1/tune-files?pageSize=100`, { headers })).json();
  return list.data.find((tune: { title: string }) => tune.title === demo.tune.title).id;
}

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
  // The maps come first; the checksum and patch report sits below them.
  const mapsTop = (await viewer.grid().boundingBox())!.y;
  expect(mapsTop).toBeLessThan((await page.getByTestId("inspection-report").boundingBox())!.y);

  await viewer.openMap(other.title);
  await expect(page.getByTestId("map-chart")).toBeVisible();

  await viewer.search(changed.title);
  await expect(viewer.mapEntry(other.title)).toHaveCount(0);
  await viewer.openMap(changed.title);

  // A patch and the map it writes share a title: the patch says it is one.
  await expect(page.getByRole("table", { name: "Patches" })).toContainText("Launch control (patch)");

  await viewer.compareWithStock();
  await expect(viewer.grid()).toContainText("%)");
  await expect(page).toHaveURL(/mode=compare/);
  // The corner names both axes, the row axis too though it has no unit.
  await expect(viewer.grid().locator("thead th").first()).toContainText("↓ row axis · → %");
  // A change of ignition timing reads in degrees, not as a share of the stock advance.
  await viewer.search("Base ignition timing");
  await viewer.openMap("Base ignition timing");
  await viewer.compareWithStock();
  await expect(viewer.grid().locator("tbody td").filter({ hasText: "°" }).first()).toBeVisible();
  await expect(viewer.grid()).not.toContainText("%)");
  // View without download: the bytes are the file, so no hex view.
  await expect(page.getByRole("radiogroup", { name: "Show" }).getByText("Hex", { exact: true })).toHaveCount(0);
});

test("the dealer jumps from a map to its bytes in the hex view and back", async ({ page }) => {
  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(demo.tune.title);
  await viewer.openMap(changed.title);
  await viewer.showBytes();
  // The map's bytes are selected; the cursor at their end names the map they belong to.
  await expect(viewer.hexCursor()).toContainText(`in ${changed.title} (data`);
  const [extent] = itemExtents(changed);
  const line = Math.floor(extent.start / 16) * 16;
  await expect(
    viewer.hexView().locator(".line-numbers", { hasText: line.toString(16).toUpperCase().padStart(6, "0") }),
  ).toBeVisible();
  await viewer
    .hexCursor()
    .getByRole("button", { name: `Open ${changed.title}` })
    .click();
  await expect(page.getByTestId("item-title")).toContainText(changed.title);
  await expect(viewer.grid()).toBeVisible();

  // The image is in the browser now: another map is read from it, without asking the server for its values.
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/maps/")) asked.push(request.url());
  });
  await viewer.openMap(other.title);
  await expect(viewer.grid()).toBeVisible();
  expect(asked, "requests for a map's values").toEqual([]);
});

test("the dealer compares the demo tune with another tune of the firmware, map by map and byte by byte", async ({
  page,
  request,
  emulator,
}) => {
  const headers = { authorization: `Bearer ${await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD)}` };
  // Another tune: the demo tune as it is now (another test may have saved a version) with one more cell of another map raised.
  const current = await request.get(`/api/v1/tune-files/${await demoTuneId(request, headers)}/download`, { headers });
  expect(current.status(), await current.text()).toBe(200);
  const rivalImage = new Uint8Array(await current.body());
  writeCell(rivalImage, other, 0, 2, readCell(rivalImage, other, 0, 2) + 1);
  fixAll(rivalImage, demo.firmware.checksums);
  const title = `E2E rival ${Date.now()}`;
  const created = await request.post("/api/v1/tune-files", {
    headers,
    multipart: {
      title,
      file: { name: "rival.bin", mimeType: "application/octet-stream", buffer: Buffer.from(rivalImage) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(demo.tune.title);
  await viewer.compareWith(title);
  // Only the map that differs is marked changed against that tune, and its cell shows the difference.
  await expect(viewer.maps().getByText("changed")).toHaveCount(1);
  await viewer.openMap(other.title);
  await expect(viewer.grid()).toContainText("-1");
  await expect(page.getByTestId("map-chart")).toContainText(title);

  await page.getByRole("radiogroup", { name: "Comparison" }).getByText("Hex diff", { exact: true }).click();
  await expect(page.getByTestId("hex-diff").locator(".monaco-diff-editor")).toBeVisible();
  await expect(page.getByTestId("hex-diff")).toContainText("changed region");

  // Against stock too: the stock side is rebuilt from the bytes the tune changes.
  await viewer.compareWith("Stock");
  await page.getByRole("radiogroup", { name: "Comparison" }).getByText("Hex diff", { exact: true }).click();
  const stockDiff = page.getByTestId("hex-diff");
  await expect(stockDiff.locator(".monaco-diff-editor")).toBeVisible();
  await expect(stockDiff).toContainText("Stock");
  await expect(stockDiff).toContainText(/\d+ changed regions?/);
});

test("the dealer sets a constant in its unit, is refused beyond its maximum, and undoes and redoes it", async ({
  page,
}) => {
  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.dealer);
  const viewer = new TuneViewerPage(page);
  await viewer.openTune(demo.tune.title);
  await viewer.openMap(constant.title);
  await viewer.edit();
  const before = await page.getByTestId("item-value").textContent();
  const target = constant.z.max! - 1;
  await viewer.setScalar(constant.title, target);
  await expect(page.getByTestId("item-value")).toHaveText(`${target}${constant.z.unit ? ` ${constant.z.unit}` : ""}`);

  await viewer.setScalar(constant.title, constant.z.max! + 1000);
  await expect(page.getByTestId("map-editor").getByRole("alert")).toContainText("above the maximum");
  await expect(page.getByTestId("item-value")).toHaveText(`${target}${constant.z.unit ? ` ${constant.z.unit}` : ""}`);

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("item-value")).toHaveText(before!);
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(page.getByTestId("item-value")).toHaveText(`${target}${constant.z.unit ? ` ${constant.z.unit}` : ""}`);
});

test("the dealer edits a cell of the demo tune and saves it: only that cell's bytes change and the checksums are fixed", async ({
  page,
  request,
  emulator,
}) => {
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
  expect(
    Buffer.from(after).equals(Buffer.from(expected)),
    "the saved image differs from the previous one by more than the cell and its checksums",
  ).toBe(true);
});

test("a customer opens a local image: its firmware's maps are read in the browser, changed ones marked, and its bytes shown", async ({
  page,
}) => {
  await new LoginPage(page).open("/tuning-tools/tune-viewer");
  await new LoginPage(page).signIn(demoUsers.customer);
  const viewer = new TuneViewerPage(page);
  await viewer.openLocalImage("my-read.bin", demo.tune.image);
  await expect(page.getByTestId("inspection-report")).toBeVisible();
  await expect(viewer.mapEntry(changed.title)).toContainText("changed");
  await viewer.openMap(changed.title);
  await expect(page.getByTestId("map-range")).toContainText(`max`);
  await viewer.showBytes();
  await expect(viewer.hexCursor()).toContainText(`in ${changed.title} (data`);
});

test.describe("on a phone in the dark theme", () => {
  test.use({ viewport: { width: 390, height: 844 }, colorScheme: "dark", hasTouch: true });

  test("a buyer charts several rows of a map with stock beside them and turns its 3-D surface by mouse and finger", async ({
    page,
  }) => {
    const ignition = items.find((item) => item.id === "ignition_base")!;
    await new LoginPage(page).open("/tuning-tools/tune-viewer");
    await new LoginPage(page).signIn(demoUsers.customer);
    const viewer = new TuneViewerPage(page);
    await viewer.openTune(demo.tune.title);
    await viewer.openMap(ignition.title);

    // 16 rows are too many to draw at once: the chart opens on the first, named by its axis value and unit.
    await expect(viewer.chartLegend()).toHaveText(["800 rpm"]);
    await viewer.toggleChartRow("1700");
    await expect(viewer.chartLegend()).toHaveText(["800 rpm", "1700 rpm"]);
    await viewer.pickChartRow("2600 rpm");
    await expect(viewer.chartLegend()).toHaveText(["800 rpm", "1700 rpm", "2600 rpm"]);
    await viewer.toggleChartRow("1700");
    await expect(viewer.chartLegend()).toHaveText(["800 rpm", "2600 rpm"]);

    // Against stock each row keeps its colour, the stock line dashed beside it.
    await viewer.compareWithStock();
    await expect(viewer.chartLegend()).toHaveText(["800 rpm", "800 rpm · Stock", "2600 rpm", "2600 rpm · Stock"]);
    const icons = await page
      .getByTestId("map-chart")
      .locator(".recharts-legend-item .recharts-legend-icon")
      .evaluateAll((lines) =>
        lines.map((line) => ({ colour: line.getAttribute("stroke"), dashed: !!line.getAttribute("stroke-dasharray") })),
      );
    expect(icons.map((icon) => icon.dashed)).toEqual([false, true, false, true]);
    expect(icons[1].colour).toBe(icons[0].colour);
    expect(icons[2].colour).not.toBe(icons[0].colour);

    const canvas = await viewer.showSurface();
    await expect(page.getByTestId("surface-range")).toContainText("°");
    const drawn = await canvas.evaluate((element: HTMLCanvasElement) => {
      const { data } = element.getContext("2d")!.getImageData(0, 0, element.width, element.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { painted, total: data.length / 4 };
    });
    expect(drawn.painted, "painted pixels of the surface's canvas").toBeGreaterThan(drawn.total / 10);
    expect(await new LayoutProbe(page).sidewaysOverflow(), "pixels the page scrolls sideways").toBe(0);

    // A mouse drag turns it.
    const before = await canvas.screenshot();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
    const turned = await canvas.screenshot();
    expect(turned.equals(before), "the surface looks the same after a drag").toBe(false);

    // So does a finger, without scrolling the page.
    const touch = await page.context().newCDPSession(page);
    const at = (dx: number) => [{ x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 }];
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
    for (const dx of [-20, -40, -60, -80])
      await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(dx) });
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const touched = await canvas.screenshot();
    expect(touched.equals(turned), "the surface looks the same after a touch drag").toBe(false);

    await page.getByRole("button", { name: "Reset view" }).click();
    expect((await canvas.screenshot()).equals(before), "the reset view is the first view").toBe(true);

    // The difference from stock is a surface of its own.
    await page.getByRole("radiogroup", { name: "Surface" }).getByText("Tune − Stock", { exact: true }).click();
    await expect(page.getByTestId("surface-range")).toContainText("tune − Stock");
    expect((await canvas.screenshot()).equals(before), "the difference surface looks like the tune's").toBe(false);

    // The address keeps the map and how it is charted: a reload opens the surface again, and lines along columns.
    await page.reload();
    await expect(
      page.getByRole("radiogroup", { name: "Chart" }).getByRole("radio", { name: "3-D surface" }),
    ).toBeChecked();
    await expect(page.getByTestId("surface-range")).toContainText("°");
    await page.getByRole("radiogroup", { name: "Chart" }).getByText("Lines", { exact: true }).click();
    await page.getByRole("radiogroup", { name: "Lines along" }).getByText("Columns", { exact: true }).click();
    await page.reload();
    await expect(
      page.getByRole("radiogroup", { name: "Lines along" }).getByRole("radio", { name: "Columns" }),
    ).toBeChecked();
  });
});
