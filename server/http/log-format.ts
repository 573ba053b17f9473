/**
 * How the log is written: pino's JSON lines for production and for files and pipes (a log
 * collector reads them), short readable lines on a terminal (`npm start`), where a JSON line per
 * request buried the banner. pino-pretty is not a dependency: the readable form is this small
 * writer, one line per request and the message of anything else.
 */
import type { LogDestination } from "./log-redaction";

export type LogFormat = "json" | "pretty";

/** LOG_FORMAT=json|pretty decides; else JSON in production or when stdout is not a terminal. */
export function logFormatFor(env: { NODE_ENV?: string; LOG_FORMAT?: string }, isTTY: boolean): LogFormat {
  if (env.LOG_FORMAT === "json" || env.LOG_FORMAT === "pretty") return env.LOG_FORMAT;
  return env.NODE_ENV === "production" || !isTTY ? "json" : "pretty";
}

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const clock = (time: unknown) => (typeof time === "number" ? new Date(time).toISOString().slice(11, 19) : "--:--:--");

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
}

/** A destination writing each JSON line as a readable one to `out`. */
export function prettyDestination(out: LogDestination): LogDestination {
  // The request line arrives with "incoming request", its status with "request completed".
  const pending = new Map<string, string>();
  return {
    write(line: string) {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        out.write(line);
        return;
      }
      const level = LEVELS[entry.level ?? 30] ?? "INFO";
      if (entry.req && entry.reqId && entry.msg === "incoming request") {
        pending.set(entry.reqId, `${entry.req.method ?? "?"} ${entry.req.url ?? "?"}`);
        return;
      }
      if (entry.res && entry.reqId && entry.msg === "request completed") {
        const request = pending.get(entry.reqId) ?? "request";
        pending.delete(entry.reqId);
        const ms = typeof entry.responseTime === "number" ? ` ${Math.round(entry.responseTime)} ms` : "";
        out.write(`${clock(entry.time)} ${level.padEnd(5)} ${request} ${entry.res.statusCode ?? "?"}${ms}\n`);
        return;
      }
      const error = entry.err?.stack ?? entry.err?.message;
      out.write(`${clock(entry.time)} ${level.padEnd(5)} ${entry.msg ?? ""}${error ? `\n${error}` : ""}\n`);
    },
  };
}

/** Where the server's log goes: undefined (pino's JSON to stdout) or the readable writer. */
export function logDestinationFor(
  env: { NODE_ENV?: string; LOG_FORMAT?: string },
  stdout: LogDestination & { isTTY?: boolean },
): LogDestination | undefined {
  return logFormatFor(env, stdout.isTTY === true) === "json" ? undefined : prettyDestination(stdout);
}
