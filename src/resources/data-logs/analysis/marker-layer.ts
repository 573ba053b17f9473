/**
 * Markers drawn on the chart's panes: a moment as a vertical line, a stretch as a band with its
 * edges. Drawn on each pane's canvas after its series (uPlot's draw hook), so a zoom or pan moves
 * them with the lines and a PNG of the canvases carries them.
 */
import type uPlot from "uplot";

export interface ChartMarker {
  start: number;
  end: number | null;
  colour: string;
}

/** A band's fill over the lines: light enough to read them through it. */
const BAND_ALPHA = 0.14;

export function drawMarkers(u: uPlot, markers: readonly ChartMarker[]): void {
  if (markers.length === 0) return;
  const { ctx, bbox } = u;
  const [min, max] = [u.scales.x.min ?? 0, u.scales.x.max ?? 0];
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  ctx.lineWidth = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const edge = (x: number) => {
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
  };
  for (const marker of markers) {
    const end = marker.end ?? marker.start;
    if (end < min || marker.start > max) continue;
    const x0 = u.valToPos(marker.start, "x", true);
    ctx.strokeStyle = marker.colour;
    edge(x0);
    if (marker.end === null) continue;
    const x1 = u.valToPos(marker.end, "x", true);
    ctx.globalAlpha = BAND_ALPHA;
    ctx.fillStyle = marker.colour;
    ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
    ctx.globalAlpha = 1;
    edge(x1);
  }
  ctx.restore();
}
