/**
 * Runs the log parser in a worker thread, one per file: a 256 MiB log takes a second or two of
 * CPU, which on the request thread would stall every other request, and a worker's memory is
 * returned when it exits.
 */
import { Worker } from "node:worker_threads";
import type { FormatId, LogChannel, LogMeta, LogParseErrorCode } from "../../../domain/logs";

export interface ParseJob {
  /** The uploaded file. */
  inputPath: string;
  /** Where the worker writes the columnar form (serializeColumns). */
  columnsPath: string;
  /** Files uploaded with the log that it needs to be read (Emerald's .lg2 beside the .lg1). */
  companions?: { name: string; path: string }[];
}

export interface ParsedSummary {
  format: FormatId;
  meta: LogMeta;
  rowCount: number;
  durationSeconds: number;
  channels: LogChannel[];
  warnings: string[];
}

export type ParseOutcome =
  | { ok: true; summary: ParsedSummary; columnsSha256: string; columnsSize: number }
  | { ok: false; code: LogParseErrorCode; line?: number; message: string };

export function parseLogFile(job: ParseJob): Promise<ParseOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("../ts-worker.mjs", import.meta.url), {
      workerData: { ...job, module: new URL("./worker.ts", import.meta.url).href },
    });
    let settled = false;
    worker.once("message", (outcome: ParseOutcome) => {
      settled = true;
      resolve(outcome);
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`The log parser worker exited with code ${code} before answering`));
    });
  });
}
