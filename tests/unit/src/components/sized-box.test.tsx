// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { Line, LineChart, ResponsiveContainer } from "recharts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SizedBox } from "../../../../src/components/sized-box";

/** The observer jsdom lacks: the test says when the box is laid out. */
let resized: () => void = () => {};
class StubObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {}
}

const chart = (
  <ResponsiveContainer>
    <LineChart data={[{ x: 1, y: 2 }]}>
      <Line dataKey="y" isAnimationActive={false} />
    </LineChart>
  </ResponsiveContainer>
);
const sizeWarnings = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.filter((args) => String(args[0]).includes("should be greater than 0"));

describe("a chart in a box not laid out yet (the dyno drawer opening)", () => {
  beforeEach(() => vi.stubGlobal("ResizeObserver", StubObserver));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("a bare ResponsiveContainer in a box of no size logs recharts' width(0) warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    render(<div style={{ width: "100%", height: 320 }}>{chart}</div>);
    expect(sizeWarnings(warn).length).toBeGreaterThan(0);
  });

  it("is drawn only once its box has a size, without the warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { container } = render(<SizedBox style={{ width: "100%", height: 320 }}>{chart}</SizedBox>);
    expect(container.querySelector(".recharts-responsive-container")).toBeNull();
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({
      width: 600,
      height: 320,
    } as DOMRect);
    act(() => resized());
    expect(container.querySelector(".recharts-responsive-container")).not.toBeNull();
    expect(sizeWarnings(warn)).toEqual([]);
  });
});
