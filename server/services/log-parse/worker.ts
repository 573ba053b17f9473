/**
 * Parses one uploaded log off the request thread: reads the stored upload, writes the columnar
 * form next to it, and posts back the summary the route stores (or the parser's refusal).
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { parentPort, workerData } from "node:worker_threads";
import { deflateRaw, gunzipSync } from "node:zlib";
import { LogParseError, parseLog, serializeColumnsConcurrently } from "../../../domain/logs";
import type { ParseJob, ParseOutcome } from "./index";

const job = workerData as ParseJob;
const deflateRawAsync = promisify(deflateRaw);

/** What a gzip upload may unpack to: the parser holds the unpacked log in memory. */
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

/** ECUMaster's .emublog and gzipped exports: unpacked within the limit, or refused saying why. */
function gunzip(bytes: Uint8Array): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    const tooBig = (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
    throw new LogParseError(
      "unsupported",
      tooBig
        ? `The gzip-compressed file unpacks to more than ${MAX_UNPACKED_BYTES} bytes, more than a log is allowed.`
        : "The file starts like a gzip-compressed file but does not unpack: it is damaged or cut short.",
    );
  }
}

async function run(): Promise<ParseOutcome> {
  try {
    const companions = await Promise.all(
      (job.companions ?? []).map(async (c) => ({ name: c.name, bytes: await readFile(c.path) })),
    );
    const log = parseLog(await readFile(job.inputPath), { companions, gunzip });
    // Each array deflated on its own (domain/logs/serialize.ts): the chart view still fetches one by
    // range. All of them go to zlib's thread pool at once, so they compress side by side.
    const columns = await serializeColumnsConcurrently(log, deflateRawAsync);
    await writeFile(job.columnsPath, columns);
    const { format, meta, rowCount, durationSeconds, channels, warnings } = log;
    return {
      ok: true,
      summary: { format, meta, rowCount, durationSeconds, channels, warnings },
      columnsSha256: createHash("sha256").update(columns).digest("hex"),
      columnsSize: columns.length,
    };
  } catch (error) {
    if (error instanceof LogParseError)
      return { ok: false, code: error.code, line: error.line, message: error.message };
    throw error;
  }
}

parentPort!.postMessage(await run());
