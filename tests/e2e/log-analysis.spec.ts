import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { DataLogsPage, LogView } from "./pages/data-logs-page";
import { demoUsers } from "./pages/login-page";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = path.resolve(repoRoot, "../shared/fixtures/logs/romraider-semicolon-decimal-comma.csv");
const ECUMASTER = path.resolve(repoRoot, "../shared/fixtures/logs/ecumaster.csv");
/** The demo customer's own log of the demo car (server/seed/flashing.ts): one pull from 2,000 to 6,500 rpm. */
const DEMO_PULL = "3rd gear pull after the tune";

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

/** The demo customer uploads the RomRaider log, which opens charted. */
async function openRomRaiderLog(page: Page): Promise<LogView> {
  const list = new DataLogsPage(page);
  await list.openAs(demoUsers.customer);
  await list.upload(FIXTURE);
  const view = new LogView(page);
  await view.waitForChart();
  return view;
}

/** Canvas pixels painted in the first compared log's near-black, darker than any text or grid. */
function darkPixels(page: Page): Promise<number> {
  return page.getByTestId("xy-canvas").evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3] > 200 && Math.max(data[i], data[i + 1], data[i + 2]) < 40) count++;
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
  const view = await openRomRaiderLog(page);

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

test("a tuner overlays ECUMaster's log and the demo car's pull on the RomRaider log, plots them against engine speed, aligns at a pull, reloads and shares the comparison, which a stranger opens the same", async ({
  page,
  browser,
}) => {
  // Two uploads, three views of the log and a stranger's: the longest flow of the spec.
  test.slow();
  const list = new DataLogsPage(page);
  await list.openAs(demoUsers.customer);
  await list.upload(ECUMASTER);
  await new LogView(page).waitForChart();
  await page.goto("/tuning-tools/data-logs");
  await list.upload(FIXTURE);
  const view = new LogView(page);
  await view.waitForChart();

  const drawer = page.locator(".ant-drawer").filter({ hasText: "Compare logs" });
  await page.getByRole("button", { name: "Compare" }).click();
  const picker = drawer.getByRole("combobox", { name: "Logs to compare" });
  await picker.click();
  const row = (title: string) => drawer.locator(".ant-list-item").filter({ hasText: title });
  // Picked until its row shows: a click that lands while the list of logs is drawn again is lost, and
  // a second click on a picked log would take it back. The first of its name: other specs upload it too.
  const pick = async (title: string | RegExp, shown: string) =>
    expect(async () => {
      if ((await row(shown).count()) === 0)
        await page.locator(".ant-select-item-option").filter({ hasText: title }).first().click();
      await expect(row(shown)).toBeVisible({ timeout: 2_000 });
    }).toPass();
  await pick(/^ecumaster$/, "ecumaster");
  await pick(DEMO_PULL, DEMO_PULL);
  // By role: ECUMaster's engine/rpm and ignition/angle (a logger that writes no units); the demo's engine
  // speed only, since RomRaider's pressure is absolute and the demo's boost relative.
  await expect(row("ecumaster")).toContainText("2 of its channels match this log's.");
  await expect(row(DEMO_PULL)).toContainText("1 of its channels match this log's.");
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(page).toHaveURL(/[?&]compare=[0-9a-f-]{36}(,|%2C)[0-9a-f-]{36}/);
  await expect(page.getByRole("button", { name: "Compare (2)" })).toBeVisible();

  // Each line names its log; the axis keeps naming the channel, ECUMaster's unitless rpm on it too.
  const legend = view.legend(0);
  await expect(legend).toContainText(/romraider[^·]*· PLX Engine Speed/i);
  await expect(legend).toContainText("ecumaster · engine/rpm");
  await expect(legend).toContainText(`${DEMO_PULL} · Engine speed`);
  expect((await view.paneTitles())[0]).toMatch(/^PLX Engine Speed \(rpm\)/);

  // Timing against engine speed: ECUMaster's points drawn over RomRaider's in a colour of their own.
  await page.getByText("X–Y", { exact: true }).click();
  // The select's box, not its search input, which its value covers.
  await page.locator(".ant-select", { has: page.getByRole("combobox", { name: "Y", exact: true }) }).click();
  await page.locator(".ant-select-dropdown:visible").getByText("Timing Advance (degrees)", { exact: true }).click();
  await expect(page.getByTestId("xy-count")).toContainText(/ecumaster: [\d,]+ points/);
  await expect.poll(() => darkPixels(page)).toBeGreaterThan(100);
  await page.getByText("Time", { exact: true }).click();

  // Aligned at a pull: RomRaider's fifth pull (chosen in the pull list) and the demo log's only one start together.
  await page.getByRole("spinbutton", { name: "Peak boost at least (bar)" }).fill("1.5");
  await page.getByRole("button", { name: "Zoom to pull 5" }).click();
  await page.getByRole("button", { name: "Compare (2)" }).click();
  await drawer.getByText("At a pull's start").click();
  await expect(drawer).toContainText("This log's chosen pull, at 460.0 s");
  await expect(row("ecumaster")).toContainText("No pull found: aligned at its start");
  await expect(drawer.getByRole("combobox", { name: `Pull of ${DEMO_PULL}` })).toBeEnabled();
  await expect(row(DEMO_PULL)).toContainText(/Shifted \+4[56]\d\.\d\d s/);
  await expect(page).toHaveURL(/[?&]align=pull/);
  await drawer.getByRole("button", { name: "Close" }).click();
  // Over the chosen pull, the demo car's engine speed is read under the cursor too.
  await view.hover(0.5);
  await expect(legend.getByRole("row").filter({ hasText: DEMO_PULL })).toContainText(/\d[\d,.]* rpm/);

  // A reload keeps the logs, the alignment and the pull it meets.
  await page.reload();
  await view.waitForChart();
  await expect(view.legend(0)).toContainText(`${DEMO_PULL} · Engine speed`);
  await page.getByRole("button", { name: "Compare (2)" }).click();
  await expect(drawer).toContainText("This log's chosen pull, at 460.0 s");
  await drawer.getByRole("button", { name: "Close" }).click();

  // Shared as a comparison: each compared log gets a link of its own, and the link places it where it was.
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("checkbox", { name: /With the 2 compared logs/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByTestId("share-link")).toHaveValue(/\/shared\/logs\//);
  const link = await dialog.getByTestId("share-link").inputValue();
  expect(link).toMatch(/[?&]compare=[A-Za-z0-9_-]{43}:0,[A-Za-z0-9_-]{43}:4[56]\d\.\d+$/);
  const stranger = await browser.newContext();
  const signedOut = await stranger.newPage();
  await signedOut.goto(link);
  const shared = new LogView(signedOut);
  await shared.waitForChart();
  await expect(shared.legend(0)).toContainText("ecumaster · engine/rpm");
  await expect(shared.legend(0)).toContainText(`${DEMO_PULL} · Engine speed`);
  // The whole log is shown; a little past 460 s the demo car's pull is read under the cursor.
  await shared.hover(465 / 827.2);
  await expect(shared.legend(0).getByRole("row").filter({ hasText: DEMO_PULL })).toContainText(/\d[\d,.]* rpm/);
  await expect(signedOut.getByRole("button", { name: /^Compare/ })).toHaveCount(0);
  await stranger.close();
});

test("a tuner opens the Timing layout of the RomRaider log, saves panes of their own, opens them on another log of the logger, and shares them: a stranger sees the same panes", async ({
  page,
  browser,
}) => {
  test.slow();
  const view = await openRomRaiderLog(page);
  // The panes a log opens with are the "Default" layout of the menu.
  await expect(view.layoutButton()).toHaveText(/Default/);

  await view.chooseLayout("For this log", "Timing");
  await expect(view.layoutButton()).toHaveText(/Timing/);
  await expect.poll(() => view.paneTitles()).toEqual(["PLX Engine Speed (rpm)", "Timing Advance (degrees)"]);
  await expect(page).toHaveURL(/[?&]panes=plx-engine-speed(%3B|;)timing-advance(&|$)/);

  // One more channel, all in one pane: the panes are no layout any more, until saved as one.
  await view.toggleChannel("PLX O2 - Wideband");
  await page.getByText("Overlaid", { exact: true }).click();
  await expect(view.layoutButton()).toHaveText(/^\s*Layout/);
  await expect.poll(() => view.paneTitles()).toHaveLength(1);
  const mine = await view.paneTitles();
  expect(mine[0]).toMatch(/PLX Engine Speed.*Timing Advance.*PLX O2 - Wideband/);
  await view.saveLayout("Timing and mixture");
  await expect(view.layoutButton()).toHaveText(/Timing and mixture/);

  // Another log of the same logger offers it, and opens with the same panes.
  const list = new DataLogsPage(page);
  await page.goto("/tuning-tools/data-logs");
  await list.upload(FIXTURE);
  await view.waitForChart();
  await expect(view.layoutButton()).toHaveText(/Default/);
  await view.chooseLayout("Yours, for this logger", "Timing and mixture");
  await expect.poll(() => view.paneTitles()).toEqual(mine);

  // Shared with its layout: a stranger opens the link with the same panes, the layout named.
  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog");
  await expect(
    dialog.getByRole("checkbox", { name: "Opens with the panes on screen (Timing and mixture)" }),
  ).toBeChecked();
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByTestId("share-link")).toHaveValue(/\/shared\/logs\//);
  const link = await dialog.getByTestId("share-link").inputValue();
  await dialog.getByRole("button", { name: "Close" }).click();
  const stranger = await browser.newContext();
  const signedOut = await stranger.newPage();
  await signedOut.goto(link);
  const shared = new LogView(signedOut);
  await shared.waitForChart();
  await expect.poll(() => shared.paneTitles()).toEqual(mine);
  await expect(shared.layoutButton()).toHaveText(/Timing and mixture/);
  await signedOut.getByRole("button", { name: "Layout" }).click();
  await expect(signedOut.locator(".ant-dropdown:visible")).toContainText("Shared with the link");
  await expect(signedOut.locator(".ant-dropdown:visible")).not.toContainText("Save as layout");
  await stranger.close();

  // Removed, it is no longer offered.
  await view.layoutButton().click();
  await page.locator(".ant-dropdown:visible").getByText("Remove “Timing and mixture”").click();
  await expect(view.layoutButton()).toHaveText(/^\s*Layout/);
  await view.layoutButton().click();
  await expect(page.locator(".ant-dropdown:visible")).not.toContainText("Timing and mixture");
});

test.describe("on a phone, by touch", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("a tuner reads the log on a chart that has the screen, pinches it to zoom about the fingers, drags it along with one finger, taps to read the values there, and charts channels and zooms to a pull from the drawers", async ({
    page: signedIn,
  }) => {
    // A phone has no mouse: the log is read in a page the test's mouse (signing in, uploading) never moved in.
    // After a tap's emulated click, Chrome moves the hover back to where that mouse last was; off the chart,
    // as it is on this page's layout, that took away the cursor the tap had placed.
    await openRomRaiderLog(signedIn);
    const page = await signedIn.context().newPage();
    await page.goto(signedIn.url());
    await signedIn.close();
    const view = new LogView(page);
    await view.waitForChart();
    const viewport = page.viewportSize()!;

    // The chart has the screen: as wide as the page's padding and its card's leave it, down to the window's foot,
    // with the channel list and the tools in drawers rather than beside or over it.
    const chart = (await view.chart().boundingBox())!;
    expect(chart.width).toBeGreaterThanOrEqual(viewport.width - 2 * (16 + 8));
    const overview = (await page.getByTestId("log-overview").boundingBox())!;
    expect(overview.y + overview.height).toBeLessThanOrEqual(viewport.height);
    expect(overview.y + overview.height).toBeGreaterThan(viewport.height - 40);
    await expect(page.getByRole("group", { name: "Channels" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Reset zoom" })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    const over = view.panes().first().locator(".u-over");
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    const [mid, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", xs: number[]) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: xs.map((x, id) => ({ x, y, id })) });
    const [from, to] = await shownRange(view);

    // Two fingers spread from 40 to 160 px apart: a third of the span, the time under their midpoint kept.
    await touch("touchStart", [mid - 20, mid + 20]);
    for (const half of [35, 50, 65, 80]) await touch("touchMove", [mid - half, mid + half]);
    await touch("touchEnd", []);
    await expect
      .poll(async () => (await shownRange(view))[1] - (await shownRange(view))[0])
      .toBeLessThan((to - from) / 3);
    const [z0, z1] = await shownRange(view);
    const centre = from + ((mid - box.x) / box.width) * (to - from);
    expect(Math.abs((z0 + z1) / 2 - centre)).toBeLessThan((z1 - z0) / 10);

    // One finger dragged to the right shows earlier times.
    await touch("touchStart", [mid]);
    for (const dx of [20, 40, 60, 80]) await touch("touchMove", [mid + dx]);
    await touch("touchEnd", []);
    await expect.poll(async () => (await shownRange(view))[0]).toBeLessThan(z0 - (z1 - z0) / 10);

    // A tap reads the values under the finger.
    await page.touchscreen.tap(box.x + box.width / 4, y);
    await expect(view.legend(0)).toContainText(/\d[\d,.]* rpm/);

    // A channel ticked off and on again in the Channels drawer leaves the chart and comes back to it.
    const withTiming = () =>
      view.chart().getByRole("table", { name: "Values under the cursor" }).filter({ hasText: "Timing Advance" });
    await expect(withTiming()).toHaveCount(1);
    await page.getByRole("button", { name: /Channels \(4\)/ }).click();
    const channels = page.getByRole("dialog", { name: "Channels" });
    await expect(channels).toBeVisible();
    await view.toggleChannel("Timing Advance");
    await expect(withTiming()).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Channels \(3\)/ })).toBeAttached();
    await view.toggleChannel("Timing Advance");
    await expect(withTiming()).toHaveCount(1);
    await channels.getByRole("button", { name: "Close" }).click();
    await expect(channels).toBeHidden();

    // The tools drawer holds the toolbar, the markers and the pulls; a pull picked there is shown on the chart.
    await page.getByRole("button", { name: "Tools" }).click();
    const tools = page.getByRole("dialog", { name: "Tools" });
    await expect(tools.getByRole("button", { name: "Export CSV" })).toBeVisible();
    await expect(tools.getByRole("region", { name: "Markers" })).toBeAttached();
    const [, before] = await shownRange(view);
    await page.getByRole("button", { name: "Reset zoom" }).click();
    await expect.poll(async () => (await shownRange(view))[1]).toBeGreaterThan(before);
    await tools.getByRole("button", { name: "Zoom to pull 1", exact: true }).click();
    await expect(tools).toBeHidden();
    await expect.poll(async () => (await shownRange(view))[1] - (await shownRange(view))[0]).toBeLessThan(60);

    // A panel opened from the tools takes the screen's width, its close button on the screen.
    await page.getByRole("button", { name: "Tools" }).click();
    await tools.getByRole("button", { name: "Compare" }).click();
    const compare = page.getByRole("dialog", { name: "Compare logs" });
    await expect(compare).toBeVisible();
    await expect(tools).toBeHidden();
    const closeCompare = (await compare.getByRole("button", { name: "Close" }).boundingBox())!;
    expect(closeCompare.x).toBeGreaterThanOrEqual(0);
    expect((await compare.boundingBox())!.width).toBeLessThanOrEqual(viewport.width);
  });
});
