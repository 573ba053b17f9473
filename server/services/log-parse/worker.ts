/**
 * Parses one uploaded log off the request thread: reads the stored upload, writes the columnar
 * form next to it, and posts back the summary the route stores (or the parser's refusal).
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { deflateRawSync } from "node:zlib";
import { LogParseError, parseLog, serializeColumns } from "../../../domain/logs";
import type { ParseJob, ParseOutcome } from "./index";

const job = workerData as ParseJob;

async function run(): Promise<ParseOutcome> {
  try {
    const log = parseLog(await readFile(job.inputPath));
    // Each array deflated on its own (domain/logs/serialize.ts): the chart view still fetches one by range.
    const columns = serializeColumns(log, (bytes) => deflateRawSync(bytes));
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
