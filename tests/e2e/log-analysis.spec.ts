import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { DataLogsPage, LogView } from "./pages/data-logs-page";
import { demoUsers } from "./pages/login-page";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = path.resolve(repoRoot, "../shared/fixtures/logs/romraider-semicolon-decimal-comma.csv");

/** The visible range's first and last second, as the page prints them. */
async function shownRange(view: LogView): Promise<[number, number]> {
  const text = (await view.visibleRange().textContent()) ?? "";
  const [from, to] = /([\d.]+)–([\d.]+) s/.exec(text)!.slice(1).map(Number);
  return [from, to];
}

/** Canvas pixels painted in a colour of the X–Y ramp (blue to red), not the axes' greys. */
function colouredPixels(page: Page): Promise<number> {
  return page.getByTestId("xy-canvas").evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 200 && Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
    }
    return count;
  });
}

const pointsDrawn = async (page: Page) => {
  const text = (await page.getByTestId("xy-count").textContent()) ?? "";
  const match = /([\d,]+) samples(?: in the box)?, ([\d,]+) points drawn/.exec(text);
  return match ? match.slice(1).map((n) => Number(n.replace(/,/g, ""))) : [0, 0];
};

test("a tuner lists the RomRaider log's full-boost pulls, zooms to one, filters its samples and plots boost against engine speed coloured by lambda", async ({
  page,
}) => {
  const list = new DataLogsPage(page);
  await list.openAs(demoUsers.customer);
  await list.upload(FIXTURE);
  const view = new LogView(page);
  await view.waitForChart();

  // Without a pedal or throttle channel, rpm rises are pulls; a peak boost of 1.5 bar keeps the five full-boost runs.
  const zoomButtons = page.getByRole("button", { name: /^Zoom to pull \d+$/ });
  await expect(zoomButtons.first()).toBeVisible();
  expect(await zoomButtons.count()).toBeGreaterThan(5);
  await page.getByRole("spinbutton", { name: "Peak boost at least (bar)" }).fill("1.5");
  await expect(zoomButtons).toHaveCount(5);
  const fifth = page.getByRole("row").filter({ has: page.getByRole("button", { name: "Zoom to pull 5" }) });
  await expect(fifth).toContainText("460.0–462.4 s");
  await expect(fifth).toContainText("5572–6686");

  await page.getByRole("button", { name: "Zoom to pull 5" }).click();
  await expect(view.visibleRange()).not.toContainText("0.00–827.20 s");
  const [from, to] = await shownRange(view);
  expect(from).toBeGreaterThan(458.5);
  expect(from).toBeLessThan(460);
  expect(to).toBeGreaterThan(462.3);
  expect(to).toBeLessThan(463.5);

  // The dyno shows the pull chosen in the list.
  await page.getByRole("button", { name: "Virtual dyno" }).click();
  const dyno = page.getByRole("dialog", { name: "Virtual dyno" });
  await dyno.getByRole("spinbutton", { name: "…or the gear of the pull" }).fill("3");
  await dyno.getByRole("button", { name: "Calculate" }).click();
  await expect(dyno.getByTestId("dyno-chosen")).toHaveText("The pull chosen in the list.");
  const pullSelect = dyno
    .locator(".ant-select")
    .filter({ has: page.getByRole("combobox", { name: "Pull", exact: true }) });
  await expect(pullSelect).toContainText(/46\d\.\d–46\d\.\d s/);
  await dyno.getByRole("button", { name: "Close" }).click();

  // A filter the parser refuses says what is wrong; one it takes says how many samples it keeps.
  const filter = page.getByRole("textbox", { name: "Sample filter" });
  await filter.fill("boost > 1");
  await filter.press("Enter");
  await expect(page.getByTestId("filter-error")).toContainText("Unknown variable 'boost' (at character 1)");
  // A quick filter from the roles writes its condition in the log's own units (the PLX MAP sensor logs bar absolute).
  await filter.fill("");
  await page.getByRole("button", { name: "Quick filters" }).click();
  await page.locator(".ant-dropdown:visible").getByRole("menuitem", { name: "In boost" }).click();
  await expect(filter).toHaveValue("plx_manifold_absolute_pressure > 1.013");
  await expect(page.getByTestId("filter-kept")).toHaveText(/^Filter keeps [\d,]+ of 4,235 samples$/);
  await expect(page.getByTestId("filter-error")).toHaveCount(0);
  await filter.fill("plx_engine_speed > 4000");
  await filter.press("Enter");
  await expect(page.getByTestId("filter-kept")).toHaveText(/^Filter keeps [\d,]+ of 4,235 samples$/);
  await expect(page.getByTestId("filter-error")).toHaveCount(0);

  await page.getByText("X–Y", { exact: true }).click();
  await expect(
    page.getByRole("img", { name: /PLX Manifold Absolute Pressure \(psi\) against PLX Engine Speed/ }),
  ).toBeVisible();
  await expect(page.getByTestId("xy-count")).toContainText("points drawn");
  const [inPull, drawnInPull] = await pointsDrawn(page);
  // Pull 5 runs from 5,572 to 6,686 rpm: every one of its samples passes the filter.
  expect(inPull).toBeGreaterThan(5);
  expect(drawnInPull).toBeGreaterThan(0);

  await page.getByRole("combobox", { name: "Colour" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText("PLX O2 - Wideband (AFR)", { exact: true }).click();
  await expect.poll(() => colouredPixels(page)).toBeGreaterThan(drawnInPull);

  // The whole log, still filtered: more samples, none under 4,000 rpm.
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect.poll(async () => (await pointsDrawn(page))[0]).toBeGreaterThan(inPull);
  const [filtered] = await pointsDrawn(page);
  // The statistics under the chart count only the samples the filter keeps.
  const rpmMean = async () => Number(await page.getByTestId("mean-plx-engine-speed").textContent());
  await expect.poll(rpmMean).toBeGreaterThan(4000);
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await expect.poll(async () => (await pointsDrawn(page))[0]).toBeGreaterThan(filtered);
  await expect.poll(rpmMean).toBeLessThan(4000);

  // A box dragged over the plot's middle zooms to it: fewer samples, all inside; the button shows every point again.
  const [whole] = await pointsDrawn(page);
  const plot = (await page.getByTestId("xy-canvas").boundingBox())!;
  await page.mouse.move(plot.x + plot.width * 0.3, plot.y + plot.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width * 0.5, plot.y + plot.height * 0.5, { steps: 4 });
  await page.mouse.move(plot.x + plot.width * 0.7, plot.y + plot.height * 0.8, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId("xy-count")).toContainText("samples in the box");
  const [inBox, drawnInBox] = await pointsDrawn(page);
  expect(inBox).toBeGreaterThan(0);
  expect(inBox).toBeLessThan(whole);
  expect(drawnInBox).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Show every point" }).click();
  await expect(page.getByTestId("xy-count")).not.toContainText("in the box");
  await expect.poll(async () => (await pointsDrawn(page))[0]).toBe(whole);
});
