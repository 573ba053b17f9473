/**
 * A generated engine log as CSV bytes, for the benches: `Time (s)` at 100 Hz and `channels`
 * sine-shaped channels with the value ranges of a real log (bench/parse-log.ts, bench/data-log-view.ts).
 */

/** Channel shapes of a real engine log: [decimals, amplitude, offset] in fixed-point digits. */
const SHAPES: [decimals: number, amplitude: number, offset: number][] = [
  [1, 3000, 3500], // rpm
  [3, 1.6, 0.4], // boost, crosses zero
  [2, 12, 85], // coolant
  [4, 0.15, 0.95], // lambda
  [3, 80, 120], // MAF
  [2, 25, -5], // ignition, negative too
  [3, 1.2, 13.1], // battery
  [3, 40, 50], // throttle
];

/** Names a logger would give the shapes above, so the channels' roles (engine speed, boost…) are found. */
const ROLE_NAMES = [
  "Engine speed (rpm)",
  "Boost (bar)",
  "Coolant temperature (°C)",
  "Lambda (λ)",
  "Mass air flow (g/s)",
  "Ignition timing (°)",
  "Battery voltage (V)",
  "Throttle position (%)",
];

/**
 * Writes the CSV straight into bytes: building 21 million strings would time the generator, not the parser.
 * With `named`, the first channels are named as a logger names them; else every one is `Channel N`.
 */
export function generateCsv(rows: number, channels: number, { named = false } = {}): Uint8Array {
  const header =
    "Time (s)," +
    Array.from({ length: channels }, (_, c) =>
      named && c < ROLE_NAMES.length ? ROLE_NAMES[c] : `Channel ${c + 1} (u${c % SHAPES.length})`,
    ).join(",") +
    "\n";
  const out = new Uint8Array(header.length + rows * 180);
  let p = new TextEncoder().encodeInto(header, out).written;
  const digits = new Uint8Array(24);

  const writeFixed = (scaled: number, decimals: number): void => {
    let v = scaled;
    if (v < 0) {
      out[p++] = 45;
      v = -v;
    }
    let n = 0;
    do {
      digits[n++] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0 || n <= decimals);
    while (n > 0) {
      if (n === decimals) out[p++] = 46;
      out[p++] = digits[--n];
    }
  };

  for (let r = 0; r < rows; r++) {
    writeFixed(r * 10, 3); // 100 Hz: 0.000, 0.010, …
    for (let c = 0; c < channels; c++) {
      const [decimals, amplitude, offset] = SHAPES[c % SHAPES.length];
      const value = offset + amplitude * Math.sin(r / (700 + 37 * c) + c);
      out[p++] = 44;
      writeFixed(Math.round(value * 10 ** decimals), decimals);
    }
    out[p++] = 10;
  }
  return out.subarray(0, p);
}
