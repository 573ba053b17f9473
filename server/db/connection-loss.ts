/**
 * PostgreSQL going away (a restart, a fail-over, a terminated session) is not the caller's fault
 * and usually passes in seconds: such errors answer 503 with Retry-After (server/errors.ts), and a
 * read issued on its own, outside a transaction, is tried once more on a fresh connection, since
 * running it again changes nothing.
 */
import type pg from "pg";

/** SQLSTATE classes and codes that mean the connection, not the statement, failed. */
const CONNECTION_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|not currently accepting connections|the database system is (starting up|shutting down)/i;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** true when the error (or one it wraps, as Drizzle does) says the database connection was lost or refused. */
export function isConnectionLoss(error: unknown): boolean {
  for (
    let current = error as ErrorLike | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as ErrorLike, depth++
  ) {
    const code = typeof current.code === "string" ? current.code : "";
    if (CONNECTION_STATES.test(code) || CONNECTION_CODES.has(code)) return true;
    if (typeof current.message === "string" && CONNECTION_MESSAGES.test(current.message)) return true;
  }
  return false;
}

/** A statement that only reads: SELECT (or WITH … SELECT) without a locking clause or a data-changing CTE. */
export function isPlainRead(text: string): boolean {
  const statement = text.trimStart().toLowerCase();
  if (!statement.startsWith("select") && !statement.startsWith("with")) return false;
  return !/\b(insert|update|delete|merge)\b|\bfor\s+(update|no key update|share|key share)\b|\bnextval\s*\(/.test(
    statement,
  );
}

function statementText(args: unknown[]): string {
  const [first] = args;
  if (typeof first === "string") return first;
  if (first && typeof first === "object" && typeof (first as { text?: unknown }).text === "string")
    return (first as { text: string }).text;
  return "";
}

/**
 * Makes the pool try a plain read once more when its connection was lost. Only the pool's own
 * `query` is wrapped: statements inside a transaction run on a checked-out client and are never
 * repeated, since the transaction they belonged to is gone.
 */
export function retryReadsOnConnectionLoss(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const retrying = (...args: unknown[]): Promise<unknown> => {
    // Callback-style calls are passed through untouched.
    if (typeof args[args.length - 1] === "function") return query(...args);
    return query(...args).catch((error: unknown) => {
      if (isConnectionLoss(error) && isPlainRead(statementText(args))) return query(...args);
      throw error;
    });
  };
  pool.query = retrying as unknown as pg.Pool["query"];
}
