/**
 * Four logs compared: a generated 1,000,000-row × 20-channel log with three more like it overlaid
 * (the log view's compare), in the production build driven through headless Chromium, against:
 *   - the first paint with every log's lines ≤ 2 × the first paint of the log alone,
 *   - a zoom frame ≤ 50 ms at p95 with the four logs drawn (wheel event → next frame).
 * The log alone and the four together are opened in turns, RUNS times each, in one browser.
 *
 *   npx tsx bench/log-compare.ts
 */
import type { Page } from "playwright-core";
import { signInPage, startBrowserPortal } from "./lib/browser-portal";
import { generateCsv } from "./lib/generate-log";
import { firstPaint, instrumentFrames, markFirstPaint, zoomSteps } from "./lib/log-view-timing";

const ROWS = 1_000_000;
const CHANNELS = 20;
const COMPARED = 3;
const RUNS = 3;
const STEPS = 30;
const TARGETS = { paintRatio: 2, frameMs: 50 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const verdict = (ok: boolean) => (ok ? "met" : "NOT MET");

const portal = await startBrowserPortal();
try {
  const user = await portal.user();
  // Named as a logger names them, so the channels are matched by role across the logs.
  const csv = generateCsv(ROWS, CHANNELS, { named: true });
  const ids: string[] = [];
  for (let i = 0; i <= COMPARED; i++) {
    const form = new FormData();
    form.append("file", new Blob([csv as BlobPart]), `bench-compare-${i}.csv`);
    form.append("title", `Bench log ${i + 1}`);
    const uploaded = await fetch(`${portal.origin}/api/v1/data-logs`, {
      method: "POST",
      body: form,
      headers: user.headers,
    });
    if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
    ids.push(((await uploaded.json()) as { id: string }).id);
  }
  const [base, ...others] = ids;
  const alone = `${portal.origin}/tuning-tools/data-logs/${base}`;
  const together = `${alone}?compare=${others.join(",")}`;

  /** A fresh page each time (no worker kept from the last): the paint, with every series of `series` drawn. */
  const open = async (url: string, series: number): Promise<{ page: Page; paint: number }> => {
    const page = await portal.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await signInPage(page, portal.origin, user);
    await markFirstPaint(page, series);
    await page.goto(url);
    return { page, paint: await firstPaint(page) };
  };

  // The log's own charted series, read from its first view: four logs draw four times as many.
  const probe = await open(alone, 1);
  await probe.page.waitForFunction(() => performance.getEntriesByName("data-log:drawn", "mark").length > 0);
  const ownSeries = await probe.page.evaluate(() =>
    Math.max(
      ...performance.getEntriesByName("data-log:drawn", "mark").map((m) => (m as PerformanceMark).detail.series),
    ),
  );
  await probe.page.close();

  const paints = { alone: [] as number[], together: [] as number[] };
  const frames: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const one = await open(alone, ownSeries);
    paints.alone.push(one.paint);
    await one.page.close();
    const four = await open(together, ownSeries * (COMPARED + 1));
    paints.together.push(four.paint);
    // Zoomed once every log is all in, as a person zooms after reading the first paint.
    await four.page.locator(`[data-compared-complete="${COMPARED}"]`).waitFor({ timeout: 120_000 });
    await instrumentFrames(four.page);
    frames.push(...(await zoomSteps(four.page, STEPS)).frames);
    await four.page.close();
  }

  const ratio = median(paints.together) / median(paints.alone);
  console.log(
    `${COMPARED + 1} logs of ${ROWS.toLocaleString("en")} rows × ${CHANNELS} channels, ${ownSeries} series each on the chart; ${RUNS} runs in turns`,
  );
  console.log(
    `  first paint, the log alone (median, spread)      ${median(paints.alone).toFixed(0).padStart(6)} ms  (${spread(paints.alone)})`,
  );
  console.log(
    `  first paint, four logs compared                  ${median(paints.together).toFixed(0).padStart(6)} ms  (${spread(paints.together)})`,
  );
  console.log(
    `  ratio, four / alone (medians)                    ${ratio.toFixed(2).padStart(6)}     target ≤ ${TARGETS.paintRatio}: ${verdict(ratio <= TARGETS.paintRatio)}`,
  );
  console.log(
    `  zoom frame with four logs, median / p95          ${median(frames).toFixed(1).padStart(6)} / ${p95(frames).toFixed(1)} ms   target p95 ≤ ${TARGETS.frameMs}: ${verdict(p95(frames) <= TARGETS.frameMs)}`,
  );
} finally {
  await portal.close();
}
