/**
 * Markers drawn on the chart's panes: a moment as a vertical line, a stretch as a band with its
 * edges, and on the first pane each marker's note at the foot of its line, cut short where the next
 * marker starts. Drawn on each pane's canvas after its series (uPlot's draw hook), so a zoom or pan
 * moves them with the lines and a PNG of the canvases carries them.
 */
import type uPlot from "uplot";

export interface ChartMarker {
  start: number;
  end: number | null;
  colour: string;
  note: string;
}

/** Where the notes are written: one pane carries them, on a box of the pane's background. */
export interface NoteStyle {
  background: string;
}

/** A note's widest, in CSS pixels: a long one is cut short with an ellipsis. */
const NOTE_MAX_WIDTH = 160;

/** A band's fill over the lines: light enough to read them through it. */
const BAND_ALPHA = 0.14;

export function drawMarkers(u: uPlot, markers: readonly ChartMarker[], notes?: NoteStyle): void {
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
  if (notes) drawNotes(u, markers, notes);
  ctx.restore();
}

/** Each note at the foot of its marker's line, as wide as the room to the next marker allows. */
function drawNotes(u: uPlot, markers: readonly ChartMarker[], style: NoteStyle): void {
  const { ctx, bbox } = u;
  const ratio = window.devicePixelRatio || 1;
  const [min, max] = [u.scales.x.min ?? 0, u.scales.x.max ?? 0];
  const shown = markers
    .filter((marker) => marker.note && marker.start >= min && marker.start <= max)
    .map((marker) => ({ marker, x: u.valToPos(marker.start, "x", true) }))
    .sort((a, b) => a.x - b.x);
  const pad = 3 * ratio;
  const height = 16 * ratio;
  ctx.font = `${11 * ratio}px sans-serif`;
  ctx.textBaseline = "middle";
  shown.forEach(({ marker, x }, k) => {
    const next = shown[k + 1]?.x ?? bbox.left + bbox.width;
    const room = Math.min(next - x - 2 * pad, NOTE_MAX_WIDTH * ratio, bbox.left + bbox.width - x - 2 * pad);
    const text = fitted(ctx, marker.note, room - 2 * pad);
    if (!text) return;
    const width = ctx.measureText(text).width + 2 * pad;
    const top = bbox.top + bbox.height - height - pad;
    ctx.globalAlpha = 0.85;
    ctx.fillStyle = style.background;
    ctx.fillRect(x + pad, top, width, height);
    ctx.globalAlpha = 1;
    ctx.fillStyle = marker.colour;
    ctx.fillText(text, x + 2 * pad, top + height / 2);
  });
}

/** The text, or its start with an ellipsis, within `width` canvas pixels; empty when not even a letter fits. */
export function fitted(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  for (let end = text.length - 1; end > 0; end--) {
    const cut = `${text.slice(0, end).trimEnd()}…`;
    if (ctx.measureText(cut).width <= width) return cut;
  }
  return "";
}
