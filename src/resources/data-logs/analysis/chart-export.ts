/**
 * Downloads of what the log view shows: a PNG of the chart's panes (their canvases, axes and
 * markers included, stacked as on the page) and a file the page built, such as the CSV.
 */

/** The panes' canvases stacked into one picture on `background` (the canvases are transparent). */
export function chartPng(canvases: readonly HTMLCanvasElement[], background: string): Promise<Blob> {
  const width = Math.max(0, ...canvases.map((canvas) => canvas.width));
  const height = canvases.reduce((sum, canvas) => sum + canvas.height, 0);
  const picture = document.createElement("canvas");
  picture.width = width;
  picture.height = height;
  const ctx = picture.getContext("2d");
  if (!ctx || width === 0 || height === 0) return Promise.reject(new Error("The chart has not been drawn yet"));
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  let top = 0;
  for (const canvas of canvases) {
    ctx.drawImage(canvas, 0, top);
    top += canvas.height;
  }
  return new Promise((resolve, reject) =>
    picture.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The chart could not be saved"))), "image/png"),
  );
}

/** Hands the browser a file to save under `name`. */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the file over: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
