import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { DataLogsPage, LogView } from "./pages/data-logs-page";
import { demoUsers, LoginPage } from "./pages/login-page";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = path.resolve(repoRoot, "../shared/fixtures/logs/romraider-semicolon-decimal-comma.csv");
const TITLE = "romraider-semicolon-decimal-comma";

test("a customer marks a log, exports what the chart shows, and a signed-out visitor of the share link sees the markers", async ({
  page,
  browser,
}) => {
  await new LoginPage(page).open("/tuning-tools/data-logs");
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  await new DataLogsPage(page).upload(FIXTURE);
  const view = new LogView(page);
  await view.waitForChart();
  await expect(view.markerPanel()).toContainText("Markers (0)");

  // A click on the chart places the marker at that time; the note says what happened there.
  await view.clickChart(0.5);
  const start = view.markerPanel().getByRole("spinbutton", { name: "Marker start (s)" });
  await expect(start).toHaveValue(/^\d+(\.\d+)?$/);
  const at = Number(await start.inputValue());
  expect(at).toBeGreaterThan(300);
  expect(at).toBeLessThan(520);
  await view.addMarker("Boost spike in third");
  await expect(view.markerRows()).toHaveCount(1);
  await expect(view.markerRows().first()).toContainText("Boost spike in third");
  await expect(view.markerRows().first()).toContainText(`${at.toFixed(2)} s`);

  // An empty note is refused by the server, and the panel says which field.
  await view.clickChart(0.25);
  await view.addMarker("   ");
  await expect(view.markerPanel().getByRole("alert")).toContainText("note: note must not be empty");
  await expect(view.markerRows()).toHaveCount(1);

  // Zoomed in, the visible range becomes a stretch, and the CSV holds that range's samples only.
  await view.dragZoom(0.25, 0.5);
  await expect(view.visibleRange()).not.toContainText("0.00–827.20 s");
  const [from, to] = /([\d.]+)–([\d.]+) s/
    .exec((await view.visibleRange().textContent()) ?? "")!
    .slice(1)
    .map(Number);
  await view.markerPanel().getByRole("button", { name: "Visible range" }).click();
  await view.addMarker("Third gear pull");
  await expect(view.markerRows()).toHaveCount(2);
  await expect(view.markerRows().filter({ hasText: "Third gear pull" })).toContainText(/[\d.]+–[\d.]+ s/);

  const csv = await view.export("CSV");
  expect(csv.name).toMatch(new RegExp(`^${TITLE}-[\\d.]+-[\\d.]+s\\.csv$`));
  const lines = csv.bytes.toString("utf8").trim().split(/\r\n/);
  expect(lines[0]).toBe(
    "Time (s),PLX Engine Speed (rpm),PLX Manifold Absolute Pressure (psi),Timing Advance (degrees),PLX O2 - Wideband (AFR)",
  );
  const times = lines.slice(1).map((line) => Number(line.split(",")[0]));
  expect(times.length).toBeGreaterThan(10);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // The range text is rounded to hundredths; the samples lie within it.
  expect(Math.min(...times)).toBeGreaterThanOrEqual(from - 0.01);
  expect(Math.max(...times)).toBeLessThanOrEqual(to + 0.01);
  expect(lines[1].split(",")).toHaveLength(5);

  const png = await view.export("PNG");
  expect(png.name).toMatch(new RegExp(`^${TITLE}-[\\d.]+-[\\d.]+s\\.png$`));
  expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

  const link = await view.shareLink();
  const stranger = await browser.newContext();
  const signedOut = await stranger.newPage();
  await signedOut.goto(link);
  const shared = new LogView(signedOut);
  await shared.waitForChart();
  await expect(shared.markerRows()).toHaveCount(2);
  await expect(shared.markerPanel()).toContainText("Boost spike in third");
  await expect(shared.markerPanel()).toContainText("Third gear pull");
  // Read only: nothing to add, change or remove.
  await expect(shared.markerPanel().getByRole("button", { name: "Add marker" })).toHaveCount(0);
  await expect(shared.markerPanel().getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await stranger.close();
});
