/** The database handle every query goes through, and the handle a transaction's callback receives. */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The handle inside `db.transaction(async (tx) => …)`: services that write in a caller's transaction take one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
