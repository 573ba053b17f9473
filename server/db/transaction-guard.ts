/**
 * Two rules every transaction keeps, enforced here rather than hoped for:
 *
 * 1. Inside `db.transaction(async (tx) => …)` every query goes through `tx`. A query on the outer
 *    handle escapes the transaction: on PGlite (one session) it waits for the transaction that
 *    waits for it and every later request hangs behind them; on PostgreSQL it reads outside the
 *    transaction's snapshot and can wait on the transaction's own row locks. The guarded handle
 *    refuses such a query at once with `QueryEscapedTransactionError`, so the mistake is a failed
 *    request (and a failed test) instead of a frozen server.
 * 2. A transaction does not stay open past `timeoutMs`: it is rolled back and the caller gets
 *    `TransactionTimeoutError`, so a stuck request releases its locks (and PGlite's only session)
 *    instead of holding them. The transaction handle refuses queries after that, so late work of
 *    the abandoned callback cannot run on a connection the pool has handed to someone else.
 * 3. No answer leaves while a transaction is open (the app's onSend hook throws
 *    `AnswerInsideTransactionError`): an answer sent from inside the callback reaches the client before
 *    COMMIT, so the client's next request, on another connection, may not yet see what it was told
 *    is stored — and if the commit then fails, the client was told of data that never existed.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./handle";

/** The methods of a Drizzle database handle that issue (or build) a query. */
const QUERY_METHODS = new Set<PropertyKey>([
  "select",
  "selectDistinct",
  "selectDistinctOn",
  "insert",
  "update",
  "delete",
  "execute",
  "with",
  "$with",
  "$count",
  "query",
  "refreshMaterializedView",
  "transaction",
]);

export class QueryEscapedTransactionError extends Error {
  constructor(method: string) {
    super(
      `db.${method}() was called inside an open transaction: use the transaction handle (tx) for every query in it`,
    );
    this.name = "QueryEscapedTransactionError";
  }
}

export class TransactionTimeoutError extends Error {
  readonly code = "TRANSACTION_TIMEOUT";
  constructor(timeoutMs: number) {
    super(`the transaction was still open after ${timeoutMs} ms and was rolled back`);
    this.name = "TransactionTimeoutError";
  }
}

export class TransactionEndedError extends Error {
  constructor(method: string) {
    super(`tx.${method}() was called after its transaction had been rolled back for running too long`);
    this.name = "TransactionEndedError";
  }
}

export class AnswerInsideTransactionError extends Error {
  constructor() {
    super(
      "an answer was sent from inside an open transaction: return the result from db.transaction() and answer after it has committed",
    );
    this.name = "AnswerInsideTransactionError";
  }
}

interface OpenTransaction {
  ended: boolean;
}

const openTransaction = new AsyncLocalStorage<OpenTransaction>();

/** true while the calling code runs inside a guarded transaction's callback. */
export const insideTransaction = (): boolean => openTransaction.getStore() !== undefined;

/**
 * Runs `work` as if no transaction were open, whatever the caller's context: for long-lived work
 * (the job queue's pollers and timers) started from code that may run inside a transaction's
 * callback, which would otherwise carry that transaction's context into every later callback.
 */
export const outsideTransaction = <T>(work: () => T): T => openTransaction.exit(work);

export interface TransactionGuardOptions {
  /** Longest a transaction may stay open before it is rolled back. */
  timeoutMs: number;
}

type TransactionFn = Db["transaction"];

export function guardTransactions(db: Db, options: TransactionGuardOptions): Db {
  const transaction: TransactionFn = (work, config) => {
    if (insideTransaction()) return Promise.reject(new QueryEscapedTransactionError("transaction"));
    return db.transaction((tx) => {
      const state: OpenTransaction = { ended: false };
      const guardedTx = refuseAfterEnd(tx, state);
      const result = openTransaction.run(state, () => work(guardedTx));
      return withDeadline(result, options.timeoutMs, () => {
        state.ended = true;
      });
    }, config);
  };
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "transaction") return transaction;
      if (QUERY_METHODS.has(property) && insideTransaction()) throw new QueryEscapedTransactionError(String(property));
      return Reflect.get(target, property, receiver);
    },
  });
}

/** The transaction handle, refusing new queries once its transaction was rolled back on time-out. */
function refuseAfterEnd<T extends object>(tx: T, state: OpenTransaction): T {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (state.ended && QUERY_METHODS.has(property)) throw new TransactionEndedError(String(property));
      return Reflect.get(target, property, receiver);
    },
  });
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new TransactionTimeoutError(timeoutMs));
    }, timeoutMs);
    timer.unref();
  });
  // The abandoned callback may still fail later; that failure has been answered already.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
