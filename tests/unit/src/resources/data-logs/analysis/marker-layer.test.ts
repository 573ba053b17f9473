import type uPlot from "uplot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChartMarker, drawMarkers, fitted } from "../../../../../../src/resources/data-logs/analysis/marker-layer";

/** A canvas context that records the notes written, each letter 6 pixels wide. */
function recordingContext() {
  const written: Array<{ text: string; x: number }> = [];
  const ctx = {
    written,
    measureText: (text: string) => ({ width: text.length * 6 }),
    fillText: (text: string, x: number) => written.push({ text, x }),
    save() {},
    restore() {},
    beginPath() {},
    rect() {},
    clip() {},
    moveTo() {},
    lineTo() {},
    stroke() {},
    fillRect() {},
  };
  return ctx;
}

/** A pane 1,000 canvas pixels wide showing 0–100 s. */
function pane(ctx: ReturnType<typeof recordingContext>): uPlot {
  return {
    ctx,
    bbox: { left: 0, top: 0, width: 1000, height: 200 },
    scales: { x: { min: 0, max: 100 } },
    valToPos: (value: number) => value * 10,
  } as unknown as uPlot;
}

const marker = (start: number, note: string): ChartMarker => ({ start, end: null, colour: "#fa0", note });

describe("drawMarkers' notes", () => {
  const was = globalThis.window;
  beforeAll(() => {
    (globalThis as { window?: unknown }).window = { devicePixelRatio: 1 };
  });
  afterAll(() => {
    (globalThis as { window?: unknown }).window = was;
  });

  it("writes each note in view at its line, cut short before the next marker", () => {
    const ctx = recordingContext();
    const markers = [
      marker(50, "Third gear pull"),
      marker(10, "Knock at 5,800 rpm, two cylinders"),
      marker(120, "Off view"),
    ];
    drawMarkers(pane(ctx), markers, { background: "#fff" });
    // At 10 s (100 px); the room is 160 px at most, less the padding, 154 px: 24 characters of 6 px with the "…" (one letter more is 156 px).
    expect(ctx.written).toEqual([
      { text: "Knock at 5,800 rpm, two…", x: 106 },
      { text: "Third gear pull", x: 506 },
    ]);
  });

  it("writes no note on a pane not given the notes' style", () => {
    const ctx = recordingContext();
    drawMarkers(pane(ctx), [marker(50, "Third gear pull")]);
    expect(ctx.written).toEqual([]);
  });

  it("fits a text to a width, or gives nothing when not a letter fits", () => {
    const ctx = recordingContext() as unknown as CanvasRenderingContext2D;
    expect(fitted(ctx, "Boost spike", 66)).toBe("Boost spike");
    expect(fitted(ctx, "Boost spike", 40)).toBe("Boost…");
    expect(fitted(ctx, "Boost spike", 5)).toBe("");
  });
});
