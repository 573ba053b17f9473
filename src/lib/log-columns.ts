/**
 * A stored log's columnar form read whole in the browser: its channels and their samples, each
 * deflated array undone by the browser's own DecompressionStream (the domain's reader takes only a
 * synchronous inflate, which the browser has not).
 */
import { decodeColumn } from "../../domain/logs/column-codes";
import { arrayCodes, readColumnsLayout, storedBytes } from "../../domain/logs/serialize";
import type { LogColumns } from "./logs-on-map";

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Every channel of the log with its samples, NaN where the log has a gap. */
export async function readLogColumns(input: Uint8Array): Promise<LogColumns> {
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  const layout = readColumnsLayout(bytes);
  if ("headerBytes" in layout || bytes.length < layout.byteLength)
    throw new Error("The log's columnar form arrived cut short");
  const channels = layout.header.channels.map(({ id, name, unit }) => ({ id, name, unit }));
  const columns = new Map<string, Float32Array>();
  for (const [k, place] of layout.columns.entries()) {
    const stored = storedBytes(bytes, place);
    const codes = arrayCodes(place.encoding, place.deflated ? await inflate(stored) : stored, layout.rows);
    columns.set(channels[k].id, decodeColumn({ codes, encoding: place.encoding }, Float32Array));
  }
  return { channels, columns };
}
