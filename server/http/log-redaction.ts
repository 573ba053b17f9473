/**
 * What the server's log must not carry, and the logger options that keep it out:
 *
 * - data-log share tokens, which are the whole credential of a share link and travel in the
 *   path (`/data-logs/shared/<token>`, the app's `/shared/logs/<token>`);
 * - out-of-band codes (`oobCode=` of password-reset, verification and sign-in links) and other
 *   credentials in query strings;
 * - the Authorization header, cookies and credential-named fields of anything logged;
 * - SQL parameter values, which drizzle puts into its error message (`params: …`) and the
 *   database repeats in its own (`invalid input syntax …: "<value>"`, `Key (…)=(<value>)`).
 *
 * Request URLs go through `redactText` in the `req` serializer, every message string through the
 * `logMethod` hook, errors through `serializeError`, and named fields through pino's `redact`.
 */
import type { FastifyRequest } from "fastify";

export const REDACTED = "[redacted]";

/** Query parameters whose values are credentials. */
const SECRET_QUERY =
  /([?&](?:oobCode|code|token|idToken|id_token|access_token|refresh_token|sessionCookie)=)[^&#\s"'<>]+/gi;
/** A share token in a path: the API's `/data-logs/shared/<token>` and the app's `/shared/logs/<token>`. */
const SHARE_PATH = /(\/shared\/(?:logs\/)?)[A-Za-z0-9_-]{16,}/g;

/** The text with credentials in URLs replaced by [redacted]. */
export function redactText(text: string): string {
  return text.replace(SHARE_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

const redactValue = (value: unknown) => (typeof value === "string" ? redactText(value) : value);

type ErrorLike = Error & Record<string, unknown>;
const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === "object" && value !== null && typeof (value as Error).message === "string";

function causesOf(error: ErrorLike): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (
    let current: unknown = error;
    isErrorLike(current) && !chain.includes(current) && chain.length < 10;
    current = current.cause
  ) {
    chain.push(current);
  }
  return chain;
}

/** Properties never copied into the log: the SQL values, and what the chain already shows. */
const SKIPPED = new Set(["params", "cause", "message", "stack", "raw"]);

export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * An error as pino's standard serializer shows it (type, message and stack with their causes,
 * own properties), with SQL parameter values taken out of every string.
 */
export function serializeError(error: unknown): SerializedError {
  // Like pino's, anything that is not an error is logged as it is.
  if (!isErrorLike(error)) return error as SerializedError;
  const chain = causesOf(error);
  const values = new Set<string>();
  for (const link of chain) {
    if (!Array.isArray(link.params)) continue;
    for (const value of link.params) {
      const text =
        typeof value === "string" ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
      // Shorter values cannot be told from the text around them; they are no secret on their own.
      if (text && text.length >= 3) values.add(text);
    }
  }
  const scrub = (text: string, link?: ErrorLike): string => {
    let out = text;
    if (link && Array.isArray(link.params))
      out = out.split(`params: ${String(link.params)}`).join(`params: ${REDACTED}`);
    for (const value of values) out = out.split(value).join(REDACTED);
    return redactText(
      out
        // PostgreSQL repeats values in a unique violation's detail and in the context of a bad parameter.
        .replace(/(Key \(.*?\))=\(.*\)/g, `$1=(${REDACTED})`)
        .replace(/(parameter \$\d+ = )'(?:[^']|'')*'/g, `$1'${REDACTED}'`),
    );
  };
  const frames = (link: ErrorLike) => {
    const stack = typeof link.stack === "string" ? link.stack : "";
    const at = stack.indexOf("\n    at ");
    return at === -1 ? "" : stack.slice(at);
  };
  const typeOf = (link: ErrorLike) => (typeof link.constructor === "function" ? link.constructor.name : link.name);
  const serialized: SerializedError = {
    type: typeOf(error),
    message: chain.map((link) => scrub(link.message, link)).join(": "),
    stack: chain
      .map((link, i) => `${i > 0 ? "caused by: " : ""}${typeOf(link)}: ${scrub(link.message, link)}${frames(link)}`)
      .join("\n"),
  };
  for (const key of Object.keys(error)) {
    if (SKIPPED.has(key)) continue;
    const value = error[key];
    if (typeof value === "string") serialized[key] = scrub(value);
    else if (isErrorLike(value)) serialized[key] = serializeError(value);
    else if (typeof value !== "function") serialized[key] = value;
  }
  // The database's own fields on a cause (pg's detail, where) can repeat values too.
  for (const link of chain.slice(1)) {
    for (const key of ["code", "detail", "where", "constraint", "table", "column"]) {
      if (typeof link[key] === "string" && serialized[key] === undefined) serialized[key] = scrub(link[key] as string);
    }
  }
  return serialized;
}

/** Fastify's request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactText(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export interface LogDestination {
  write(line: string): void;
}

/** Fastify's `logger` option: pino at `level`, writing to `stream` (stdout when unset). */
export function loggerOptions(level: string, stream?: LogDestination) {
  return {
    level,
    ...(stream && { stream }),
    serializers: {
      req: serializeRequest,
      err: serializeError,
      error: serializeError,
      url: redactValue,
      link: redactValue,
    },
    redact: {
      censor: REDACTED,
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "headers.authorization",
        "headers.cookie",
        'res.headers["set-cookie"]',
        ...["password", "token", "idToken", "sessionCookie", "oobCode", "secret"].flatMap((name) => [
          name,
          `*.${name}`,
        ]),
      ],
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(this, args.map(redactValue));
      },
    },
  };
}
