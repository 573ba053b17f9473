/**
 * Timing the data-log view in a bench page (bench/data-log-view.ts, bench/log-compare.ts): the
 * first paint, and each zoom or pan frame from the input event to the frame that shows it.
 */
import type { Page } from "playwright-core";

type BenchState = { bench: { frames: number[]; drawn: number[]; readouts: number[] } };

/**
 * Set before the page's scripts run: `window.painted` becomes the time of the frame after the first
 * view drawn with at least `series` series.
 */
export async function markFirstPaint(page: Page, series: number): Promise<void> {
  await page.addInitScript((least: number) => {
    new PerformanceObserver((list, observer) => {
      if (
        !list
          .getEntries()
          .some((entry) => entry.name === "data-log:drawn" && (entry as PerformanceMark).detail.series >= least)
      )
        return;
      observer.disconnect();
      requestAnimationFrame(() => ((window as unknown as { painted: number }).painted = performance.now()));
    }).observe({ entryTypes: ["mark"] });
  }, series);
}

/** The first paint's time from the navigation's start, once `markFirstPaint` saw it. */
export async function firstPaint(page: Page): Promise<number> {
  const painted = await page.waitForFunction(() => (window as unknown as { painted?: number }).painted, undefined, {
    timeout: 120_000,
  });
  return (await painted.jsonValue()) as number;
}

/** Installs the frame and readout timing in the page (`window.bench`). */
export async function instrumentFrames(page: Page): Promise<void> {
  // tsx names the functions it compiles with a helper of its own; the page needs one too.
  await page.evaluate("globalThis.__name = (fn) => fn");
  await page.evaluate(() => {
    const state = {
      pending: -1,
      drawsBefore: 0,
      frames: [] as number[],
      drawn: [] as number[],
      readouts: [] as number[],
      pendingMove: -1,
    };
    (window as unknown as { bench: typeof state }).bench = state;
    const on = {
      draws: () => performance.getEntriesByName("data-log:drawn", "mark"),
      frameAfter: (start: number) => requestAnimationFrame(() => state.frames.push(performance.now() - start)),
    };
    // The step starts when the browser took the input; the view redraws inside the page's handler,
    // so the frame that shows it is the first whose animation callbacks run after the handler:
    // asked for from the end of the event's dispatch (a listener added to window while the event
    // is on its way there runs after every listener the page has on it).
    const afterDispatch = (event: Event) => {
      const marks = on.draws();
      if (state.pending < 0 || marks.length === state.drawsBefore) return;
      state.pending = -1;
      state.drawn.push(marks[marks.length - 1].startTime - event.timeStamp);
      on.frameAfter(event.timeStamp);
    };
    for (const type of ["wheel", "keydown"] as const) {
      document.addEventListener(
        type,
        (event) => {
          state.pending = event.timeStamp;
          state.drawsBefore = on.draws().length;
          window.addEventListener(type, afterDispatch, { once: true });
        },
        { capture: true },
      );
    }
    document.addEventListener("mousemove", (event) => (state.pendingMove = event.timeStamp), { capture: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // A step whose view was drawn later than its event (no points yet): the frame after that draw.
        if (entry.name === "data-log:drawn" && state.pending >= 0) {
          const start = state.pending;
          state.pending = -1;
          state.drawn.push(entry.startTime - start);
          on.frameAfter(start);
        }
        // The readout is in the DOM at its mark; the next frame shows it, so within a frame means ≤ 16.7 ms.
        if (entry.name === "data-log:readout" && state.pendingMove >= 0) {
          state.readouts.push(entry.startTime - state.pendingMove);
          state.pendingMove = -1;
        }
      }
    }).observe({ entryTypes: ["mark"] });
  });
}

/** The frames and draws timed so far, and a wait for the next ones. */
export function frameTimes(page: Page) {
  const read = (key: "frames" | "drawn" | "readouts") =>
    page.evaluate((name) => (window as unknown as BenchState).bench[name].slice(), key);
  return {
    read,
    count: async () => (await read("frames")).length,
    waitFor: (n: number) =>
      page.waitForFunction((count) => (window as unknown as BenchState).bench.frames.length >= count, n, {
        timeout: 10_000,
      }),
  };
}

/** Wheel steps over the first pane (in, then out): each step's frame and its input → view drawn time. */
export async function zoomSteps(page: Page, steps: number): Promise<{ frames: number[]; drawn: number[] }> {
  const box = (await page.locator(".uplot .u-over").first().boundingBox())!;
  const times = frameTimes(page);
  const [frames0, drawn0] = [(await times.read("frames")).length, (await times.read("drawn")).length];
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, i < steps / 2 ? -100 : 100);
    await times.waitFor(frames0 + i + 1);
  }
  return { frames: (await times.read("frames")).slice(frames0), drawn: (await times.read("drawn")).slice(drawn0) };
}
