// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaneSeries } from "../../../../../../src/resources/data-logs/analysis/pane-series";

/** uPlot as far as the chart uses it: each plot built and destroyed is counted. */
const built: FakePlot[] = [];
class FakePlot {
  static join = () => [[]];
  over = document.createElement("div");
  destroyed = false;
  constructor(_options: unknown, _data: unknown, holder: HTMLElement) {
    holder.appendChild(this.over);
    built.push(this);
  }
  batch = (run: () => void) => run();
  setData = () => undefined;
  setScale = () => undefined;
  setSize = () => undefined;
  destroy = () => {
    this.destroyed = true;
  };
}
vi.mock("uplot", () => ({ default: FakePlot }));
vi.mock("uplot/dist/uPlot.min.css", () => ({}));
globalThis.ResizeObserver ??= class {
  observe() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const { LogChart } = await import("../../../../../../src/resources/data-logs/analysis/log-chart");

const pane = (id: string): PaneSeries[] => [
  { id, label: id, colour: "#000", conversion: { unit: "rpm", scale: 1, offset: 0 } },
];
const panes = ["rpm", "boost", "timing", "afr"].map(pane);
const nextTask = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 5)));
/** One task of the kind the chart draws its panes in (a MessageChannel's message): queued after any the chart queued before. */
const oneTask = () =>
  act(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      }),
  );
/** Until the chart has drawn `count` panes, a task at a time. */
async function untilBuilt(count: number) {
  for (let task = 0; task < 50 && built.length < count; task++) await oneTask();
}

function chart() {
  return render(
    <LogChart
      panes={panes}
      getRange={() => [0, 10]}
      paneHeight={120}
      onRange={() => undefined}
      onCursor={() => undefined}
      onWidth={() => undefined}
    />,
  );
}

afterEach(() => {
  cleanup();
  built.length = 0;
});

describe("the log chart's panes", () => {
  it("keeps every pane's place at once and draws the panes one task each, none in the task that shows the chart", async () => {
    const { getByTestId } = chart();
    const host = getByTestId("log-chart");
    expect(host.children).toHaveLength(4);
    expect(built).toHaveLength(0);
    await untilBuilt(4);
    expect(built).toHaveLength(4);
    // Each plot in its own holder, in the panes' order.
    expect(built.map((plot) => [...host.children].indexOf(plot.over.parentElement!))).toEqual([0, 1, 2, 3]);
  });

  it("stops drawing panes when the chart goes, and destroys those it drew", async () => {
    const { unmount } = chart();
    await untilBuilt(1);
    const drawn = built.length;
    expect(drawn).toBeLessThan(4);
    unmount();
    await nextTask();
    await nextTask();
    expect(built).toHaveLength(drawn);
    expect(built.every((plot) => plot.destroyed)).toBe(true);
  });
});
