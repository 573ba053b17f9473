/**
 * The tune viewer on a generated 8 MiB image with 2,000 definition items, in the production
 * build driven through headless Chromium, against these targets:
 *   - the first map on screen ≤ 1.5 s after navigating to the tune (the SPA's load included),
 *   - switching maps ≤ 100 ms (click in the tree → the map drawn → next frame),
 *   - opening the hex view ≤ 1 s (click → Monaco's lines drawn → next frame, the chunk's download included),
 *   - scrolling the hex view without dropped frames (frame intervals while wheeling through it).
 *
 *   npx tsx bench/tune-viewer.ts
 *
 * It starts its own Auth emulator and server (PGlite in .test-data/bench-*), builds the SPA
 * when it is stale, creates the firmware record, its stock file and a tune through the API,
 * and signs in as the tune's dealer through the login page.
 */
import { generateDemo } from "../server/seed/generator";
import { startBrowserPortal } from "./lib/browser-portal";

const SIZE = 8 * 1024 * 1024;
const ITEMS = 2000;
const SWITCHES = 12;
const WHEEL_STEPS = 120;
const TARGETS = { firstMapMs: 1500, switchMs: 100, hexOpenMs: 1000, frameMs: 1000 / 60 };

const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const verdict = (ok: boolean) => (ok ? "met" : "NOT MET");
const ms = (n: number) => n.toFixed(1).padStart(7);

const { origin, browser, user, close } = await startBrowserPortal();

async function api<T>(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: FormData | object,
): Promise<{ status: number; json: T; ms: number }> {
  const start = performance.now();
  const response = await fetch(`${origin}/api/v1${url}`, {
    method,
    headers: body && !(body instanceof FormData) ? { ...headers, "content-type": "application/json" } : headers,
    body: body instanceof FormData ? body : body && JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return { status: response.status, json, ms: performance.now() - start };
}

const fileForm = (bytes: Uint8Array, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([bytes as BlobPart]), "image.bin");
  return form;
};

try {
  const demo = generateDemo({ size: SIZE, itemCount: ITEMS, firmwareId: "BENCH-8M" });
  const [admin, dealer] = [await user("admin"), await user("dealer")];
  const { firmware } = demo;
  const record = await api<{ id: string }>("PUT", "/firmware-support/firmware-support", admin.headers, {
    firmwareId: firmware.firmwareId,
    ecuFamily: "BENCH",
    manufacturer: "Bench Motors",
    imageSize: firmware.imageSize,
    identify: firmware.identify,
    checksums: firmware.checksums,
    definition: firmware.definition,
  });
  await api(
    "POST",
    `/firmware-support/firmware-support/${record.json.id}/stock-file`,
    admin.headers,
    fileForm(demo.stock),
  );
  const tune = await api<{ id: string }>(
    "POST",
    "/tune-files",
    dealer.headers,
    fileForm(demo.tune.image, { title: demo.tune.title }),
  );
  const tuneId = tune.json.id;
  console.log(
    `Tune: ${(SIZE / 2 ** 20).toFixed(0)} MiB image, ${ITEMS.toLocaleString("en")} definition items, ${demo.tune.changedItems.length} changed from stock`,
  );

  // Server side, one request at a time after a warm-up, as the viewer makes them.
  await api("GET", `/tune-files/${tuneId}/maps`, dealer.headers);
  const maps = await api<{ changed: string[] }>("GET", `/tune-files/${tuneId}/maps`, dealer.headers);
  const item = firmware.definition.items.find((candidate) => candidate.kind === "table2d")!;
  const itemTimes: number[] = [];
  for (let i = 0; i < 10; i++)
    itemTimes.push((await api("GET", `/tune-files/${tuneId}/maps/${item.id}`, dealer.headers)).ms);
  // The floor under every request: token check, the tune's row and access, no image.
  const detailTimes: number[] = [];
  for (let i = 0; i < 10; i++) detailTimes.push((await api("GET", `/tune-files/${tuneId}`, dealer.headers)).ms);
  console.log("\nAPI (ms, HTTP round trip on 127.0.0.1)");
  console.log(
    `  GET /tune-files/{id} (baseline), median / p95     ${ms(median(detailTimes))} / ${p95(detailTimes).toFixed(1)}`,
  );
  console.log(
    `  GET /maps: definition + changed items (${(JSON.stringify(maps.json).length / 2 ** 20).toFixed(2)} MiB)   ${ms(maps.ms)}`,
  );
  console.log(
    `  GET /maps/{item}: one map + stock, median / p95      ${ms(median(itemTimes))} / ${p95(itemTimes).toFixed(1)}`,
  );

  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${origin}/login`);
  await page.getByLabel("Email").fill(dealer.email);
  await page.getByLabel("Password").fill(dealer.password);
  await page.locator("form").getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));

  // tsx names the functions it compiles with a helper that the page does not have.
  await page.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  // Set before the page's scripts run: the frame after an item's view is in the page, and after the hex view's lines are.
  await page.addInitScript(() => {
    const state = { shown: new Map<string, number>(), hexDrawn: -1 };
    (window as unknown as { bench: typeof state }).bench = state;
    new MutationObserver(() => {
      for (const element of document.querySelectorAll("[data-shown-item]")) {
        const id = element.getAttribute("data-shown-item")!;
        if (!state.shown.has(id)) {
          state.shown.set(id, -1);
          requestAnimationFrame(() => state.shown.set(id, performance.now()));
        }
      }
      if (state.hexDrawn < 0 && document.querySelector("[data-testid=hex-view] .view-lines .view-line")) {
        state.hexDrawn = 0;
        requestAnimationFrame(() => (state.hexDrawn = performance.now()));
      }
    }).observe(document, { childList: true, subtree: true });
  });
  // A full navigation: the time origin is the navigation's start.
  await page.goto(`${origin}/tuning-tools/tune-viewer?tune=${tuneId}`);
  // Without a choice the viewer opens the first changed map.
  const firstId = maps.json.changed[0];
  const shownAt = (id: string) =>
    page.waitForFunction(
      (key) =>
        ((window as unknown as { bench: { shown: Map<string, number> } }).bench.shown.get(key) ?? -1) > 0 &&
        (window as unknown as { bench: { shown: Map<string, number> } }).bench.shown.get(key),
      id,
      { timeout: 30_000 },
    );
  const firstMapMs = (await (await shownAt(firstId)).jsonValue()) as number;

  // Switching: maps spread over the definition, each found by searching the tree (which draws only the rows in view), then clicked.
  const switchTargets = firmware.definition.items
    .filter((_, i) => i % Math.floor(ITEMS / SWITCHES) === 7)
    .slice(0, SWITCHES);
  const switches: number[] = [];
  const requests: number[] = [];
  for (const target of switchTargets) {
    await page.getByLabel("Search maps").fill(target.title);
    const entry = page.getByRole("tree", { name: "Maps" }).getByRole("treeitem", {
      name: new RegExp(`^${target.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( changed)?$`),
    });
    await entry.waitFor();
    await page.evaluate(() => {
      const bench = (window as unknown as { bench: { clicked: number } }).bench;
      document.addEventListener("click", (event) => (bench.clicked = event.timeStamp), { capture: true, once: true });
    });
    await entry.click();
    const drawn = (await (await shownAt(target.id)).jsonValue()) as number;
    const clicked = await page.evaluate(() => (window as unknown as { bench: { clicked: number } }).bench.clicked);
    switches.push(drawn - clicked);
    // How much of it is the request for the map's values (issued → answered), the rest being React and the browser.
    const fetched = await page.evaluate(
      (id) =>
        performance
          .getEntriesByType("resource")
          .findLast((entry) => entry.name.includes(`/maps/${encodeURIComponent(id)}`)) as
          | PerformanceResourceTiming
          | undefined,
      target.id,
    );
    if (fetched) requests.push(fetched.responseEnd - fetched.startTime);
  }

  // The hex view, opened from the mode switch.
  await page.evaluate(() => {
    const bench = (window as unknown as { bench: { clicked: number } }).bench;
    document.addEventListener("click", (event) => (bench.clicked = event.timeStamp), { capture: true, once: true });
  });
  await page.getByRole("radiogroup", { name: "Show" }).getByText("Hex", { exact: true }).click();
  await page.waitForFunction(
    () => (window as unknown as { bench: { hexDrawn: number } }).bench.hexDrawn > 0,
    undefined,
    { timeout: 30_000 },
  );
  const hexOpenMs = await page.evaluate(() => {
    const bench = (window as unknown as { bench: { hexDrawn: number; clicked: number } }).bench;
    return bench.hexDrawn - bench.clicked;
  });

  // Scrolling: frame intervals measured by requestAnimationFrame while the wheel moves 12 lines a step.
  const lines = page.getByTestId("hex-view").locator(".monaco-editor").first();
  const box = (await lines.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => {
    const frames: number[] = [];
    let last = performance.now();
    const bench = (window as unknown as { bench: { frames: number[]; stop: boolean } }).bench;
    bench.frames = frames;
    bench.stop = false;
    const tick = (now: number) => {
      frames.push(now - last);
      last = now;
      if (!bench.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(tick);
    });
  });
  for (let i = 0; i < WHEEL_STEPS; i++) await page.mouse.wheel(0, 240);
  // Then far jumps: Ctrl+End and back to the middle through the keyboard.
  await lines.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Control+Home");
  await page.waitForTimeout(200);
  const frames = await page.evaluate(() => {
    const bench = (window as unknown as { bench: { frames: number[]; stop: boolean } }).bench;
    bench.stop = true;
    return bench.frames.slice();
  });
  const firstLine = await page.getByTestId("hex-view").locator(".line-numbers").first().textContent();
  const dropped = frames.filter((frame) => frame > TARGETS.frameMs * 1.5).length;

  console.log("\nBrowser, production build, headless Chromium (ms)");
  console.log(
    `  first map on screen after navigating to the tune ${ms(firstMapMs)}   target ≤ ${TARGETS.firstMapMs}: ${verdict(firstMapMs <= TARGETS.firstMapMs)}`,
  );
  console.log(
    `  switching maps (click → drawn), median / p95     ${ms(median(switches))} / ${p95(switches).toFixed(1)}   target ≤ ${TARGETS.switchMs}: ${verdict(p95(switches) <= TARGETS.switchMs)}`,
  );
  // Values read from an image already in the browser make no request: only the switches that asked the server count here.
  console.log(
    `    of which the map's values request, median (${requests.length} of ${switches.length} switches asked) ${requests.length ? ms(median(requests)) : "none"}`,
  );
  console.log(
    `  opening the hex view (click → lines drawn)       ${ms(hexOpenMs)}   target ≤ ${TARGETS.hexOpenMs}: ${verdict(hexOpenMs <= TARGETS.hexOpenMs)}`,
  );
  console.log(
    `  hex scroll frames (${frames.length}), median / p95 / max       ${ms(median(frames))} / ${p95(frames).toFixed(1)} / ${Math.max(...frames).toFixed(1)}   frames over 1.5 × 16.7 ms: ${dropped}: ${verdict(dropped === 0)}`,
  );
  console.log(`  (first line in view after the scroll: ${firstLine})`);
} finally {
  await close();
}
