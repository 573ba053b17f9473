import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { DataLogsPage, LogView } from "./pages/data-logs-page";
import { LayoutProbe } from "./pages/layout-probe";
import { demoUsers, LoginPage } from "./pages/login-page";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = path.resolve(repoRoot, "../shared/fixtures/logs/romraider-semicolon-decimal-comma.csv");
const JB4_FIXTURE = path.resolve(repoRoot, "../shared/fixtures/logs/ecuxplot-jb4.csv");

test("a customer uploads a log, charts and zooms it, and shares it with someone signed out", async ({
  page,
  browser,
}) => {
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  const list = new DataLogsPage(page);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await list.upload(FIXTURE);

  const view = new LogView(page);
  await view.waitForChart();
  // The tuner's panes open from the channels' roles: engine speed with boost, timing, lambda.
  await expect(view.panes()).toHaveCount(3);
  expect(await view.paneTitles()).toEqual([
    "PLX Engine Speed (rpm) · PLX Manifold Absolute Pressure (psi)",
    "Timing Advance (degrees)",
    "PLX O2 - Wideband (AFR)",
  ]);
  await expect(view.visibleRange()).toContainText("0.00–827.20 s of 827.20 s · 4,235 rows");
  // Each pane's legend names its channels; with no cursor on the chart, without a value.
  await expect(view.legend(1)).toContainText(/Timing Advance\s*–/);

  await view.toggleChannel("Timing Advance");
  await view.toggleChannel("PLX O2 - Wideband");
  await expect(view.panes()).toHaveCount(1);
  await expect(page).toHaveURL(/panes=plx-engine-speed(,|%2C)plx-manifold-absolute-pressure/);

  await view.dragZoom(0.25, 0.5);
  await expect(view.visibleRange()).not.toContainText("0.00–827.20 s");
  const zoomed = await view.visibleRange().textContent();
  const [from, to] = /([\d.]+)–([\d.]+) s/
    .exec(zoomed ?? "")!
    .slice(1)
    .map(Number);
  expect(from).toBeGreaterThan(150);
  expect(to).toBeLessThan(450);

  // Over the chart, the legend gives each channel's value and unit (off it, none: see above).
  await view.hover(0.5);
  await expect(page.getByTestId("cursor-time")).toContainText(/At [\d.]+ s/);
  await expect(page.getByTestId("value-plx-engine-speed")).toHaveText(/^\d+(\.\d+)?$/);
  await expect(view.legend()).toContainText(/PLX Engine Speed\s*\d+(\.\d+)? rpm/);
  await expect(view.legend()).toContainText(/PLX Manifold Absolute Pressure\s*-?\d+(\.\d+)? psi/);

  await page.keyboard.press("Escape");
  await expect(view.visibleRange()).toContainText("0.00–827.20 s");

  const link = await view.shareLink();
  expect(link).toMatch(/\/shared\/logs\/[A-Za-z0-9_-]{43}\?channels=plx-engine-speed,plx-manifold-absolute-pressure$/);

  const stranger = await browser.newContext();
  const signedOut = await stranger.newPage();
  const scripts: string[] = [];
  signedOut.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await signedOut.goto(link);
  const shared = new LogView(signedOut);
  await expect(signedOut.getByTestId("shared-title")).toHaveText("romraider-semicolon-decimal-comma");
  await shared.waitForChart();
  // The link opens with the owner's panes: both channels in one.
  await expect(shared.panes()).toHaveCount(1);
  expect(await shared.paneTitles()).toEqual(["PLX Engine Speed (rpm) · PLX Manifold Absolute Pressure (psi)"]);
  // Only the shared channels reach the stranger.
  await expect(shared.channel("PLX Engine Speed")).toBeChecked();
  await expect(shared.channel("Timing Advance")).toHaveCount(0);
  // A visitor gets the log's code, not the signed-in portal's: its brand leads to the landing.
  expect(scripts.filter((file) => /\/(dashboard|portal-layout|inbox)-[\w-]{8}\.js$/.test(file))).toEqual([]);
  expect(scripts.some((file) => /\/log-analysis-[\w-]{8}\.js$/.test(file))).toBe(true);
  await stranger.close();
});

test("a bootmod3 log opens on engine speed with boost and its target, then timing and every cylinder's correction, each pane titled by its channels", async ({
  page,
}) => {
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await new DataLogsPage(page).upload(path.resolve(repoRoot, "../shared/fixtures/more-logs/bootmod3-b58.csv"));
  const view = new LogView(page);
  await view.waitForChart();
  await expect(view.panes()).toHaveCount(4);
  const titles = await view.paneTitles();
  expect(titles[0]).toBe("Engine speed (1/min) · Boost (Pre-Throttle), Boost pressure (Target) (psig)");
  expect(titles[1]).toMatch(
    /^Ignition Cyl 1 \(deg\) · Ignition Timing Corr\. Cyl\. 1, .*Ignition Timing Corr\. Cyl\. 6 \(°\)$/,
  );
  expect(titles[2]).toContain("Lambda");
  expect(titles[3]).toBe("Throttle Angle, Accel. Pedal (%)");
  await expect(view.channel("Engine speed")).toBeChecked();
  await expect(view.channel("Ambient pressure")).not.toBeChecked();
});

test("a share link that does not exist shows nothing of any log", async ({ page }) => {
  await page.goto(`/shared/logs/${"A".repeat(43)}`);
  await expect(page.getByText("This link does not work")).toBeVisible();
  await expect(page.getByTestId("log-chart")).toHaveCount(0);
});

test("a customer's log is filed under their only vehicle: the list shows and filters by it, the dyno keeps its profile with it", async ({
  page,
}) => {
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  const list = new DataLogsPage(page);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  // The account has one car: the upload is filed under it without choosing.
  await expect(list.uploadVehicle()).toContainText("Demo hatchback (WDEMZZZ0000000001)");
  await list.upload(JB4_FIXTURE);

  const view = new LogView(page);
  await view.waitForChart();
  await page.getByRole("button", { name: "Virtual dyno" }).click();
  await expect(page.getByTestId("dyno-kept-with")).toHaveText(/^Kept with your vehicle Demo hatchback/);
  await page.getByRole("dialog", { name: "Virtual dyno" }).getByRole("button", { name: "Close" }).click();

  // Back to the list and to the log again: the kept-alive page shows its chart without fetching the columns again.
  const columnRequests: string[] = [];
  page.on("request", (request) => request.url().includes("/columns") && columnRequests.push(request.url()));
  await page.getByRole("link", { name: "Back to the portal" }).click();
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await list.row("ecuxplot-jb4").first().getByRole("link", { name: "ecuxplot-jb4" }).click();
  await view.waitForChart();
  expect(columnRequests).toEqual([]);

  await list.open();
  await expect(list.row("ecuxplot-jb4").first()).toContainText("Demo hatchback");
  await list.filterByVehicle("Demo hatchback (WDEMZZZ0000000001)");
  await expect(page).toHaveURL(/vehicleId/);
  await expect(list.row("ecuxplot-jb4")).toHaveCount(1);
  for (const row of await list.rows().all()) await expect(row).toContainText("Demo hatchback");

  // Taken off the vehicle, the log leaves the filtered list and its dyno profile stays with the log alone.
  await list.removeVehicle("ecuxplot-jb4");
  await expect(list.row("ecuxplot-jb4")).toHaveCount(0);
  await page.goto(page.url().replace(/\?.*$/, ""));
  await list.row("ecuxplot-jb4").getByRole("link", { name: "ecuxplot-jb4" }).click();
  await view.waitForChart();
  await page.getByRole("button", { name: "Virtual dyno" }).click();
  await expect(page.getByTestId("dyno-kept-with")).toHaveText(/^Kept with this log only/);
});

test("a long log charts its first channels from byte ranges of the deflated columns, fetching no byte twice, then every other channel; narrowed to a phone it does not scroll sideways", async ({
  page,
}) => {
  // 20,160 rows × 19 channels: its columnar form is past the first 64 KiB the view asks for, so it
  // comes in parts — the header with what else the first 64 KiB hold, then the rest — each array inflated alone.
  const ranges: string[] = [];
  page.on(
    "response",
    (response) =>
      response.url().includes("/columns") &&
      ranges.push(response.headers()["content-range"] ?? `whole ${response.status()}`),
  );
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  const list = new DataLogsPage(page);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await list.upload(path.resolve(repoRoot, "../shared/fixtures/logs/ecumaster.csv"));

  const view = new LogView(page);
  await view.waitForChart();
  await expect(view.visibleRange()).toContainText("of 403.18 s · 20,160 rows");
  // Engine speed, timing and throttle by their roles; the file's first column is a gearbox target.
  await expect(view.panes()).toHaveCount(3);

  // A channel that came with the rest charts, and reads the logged value under the cursor.
  await view.toggleChannel("dbw/target");
  await expect(view.panes()).toHaveCount(4);
  await view.hover(0);
  await expect(page.getByTestId("value-dbw-target")).toHaveText(/^\d+(\.\d+)?$/);
  await expect(page.getByTestId("value-engine-rpm")).toHaveText(/^1\d{3}(\.\d+)?$/);

  // Every byte of the form came once: the parts, in order, tile it from the first byte to the last.
  const parts = ranges.map((range) => /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range)?.slice(1).map(Number) ?? range);
  expect(
    parts.every((part) => Array.isArray(part)),
    ranges.join(" "),
  ).toBe(true);
  const sorted = (parts as number[][]).sort((a, b) => a[0] - b[0]);
  expect(sorted.length, ranges.join(" ")).toBeGreaterThanOrEqual(2);
  expect(sorted[0][0]).toBe(0);
  sorted.slice(1).forEach(([start], i) => {
    expect(start, ranges.join(" ")).toBe(sorted[i][1] + 1);
  });
  expect(sorted[sorted.length - 1][1]).toBe(sorted[0][2] - 1);

  // Its channels are named by path ("drivetrain/torqueEstimation/dsgEngineTorquePercent"): on a phone
  // the readout, under Tools, wraps them instead of pushing the page sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("button", { name: "Tools" }).click();
  await expect(page.getByRole("table", { name: "Channel values" })).toBeVisible();
  // Polled: the chart and its overview follow the new width a frame or two after the resize.
  const probe = new LayoutProbe(page);
  await expect
    .poll(async () => ((await probe.sidewaysOverflow()) > 0 ? (await probe.overflowingElements()).join(", ") : ""))
    .toBe("");
});

test("on a phone the chart's place is kept while the log loads: its card neither moves nor changes height when the chart draws", async ({
  page,
}) => {
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await new DataLogsPage(page).upload(JB4_FIXTURE);
  const view = new LogView(page);
  await view.waitForChart();

  // Opened again on a phone with the columns held back: the view stands as it will once they come.
  await page.setViewportSize({ width: 375, height: 800 });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/columns", async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  const card = page.getByTestId("log-chart-card");
  await expect(page.getByTestId("log-chart-loading")).toBeVisible();
  // The channel list is under its button on a phone, the chart's card has the screen.
  await expect(page.getByRole("button", { name: /Channels \(\d+\)/ })).toBeVisible();
  const before = (await card.boundingBox())!;

  release();
  await view.waitForChart();
  await expect(page.getByTestId("log-overview").locator(".uplot")).toBeVisible();
  const after = (await card.boundingBox())!;
  expect(after.y).toBe(before.y);
  expect(
    Math.abs(after.height - before.height),
    `${before.height} px before, ${after.height} after`,
  ).toBeLessThanOrEqual(1);
});
