/**
 * What a service's list asks of the list machinery (server/http/list, which services do not
 * import): the route runs the list with its spec and query string, the service reads the rows.
 */
import type { SQL } from "drizzle-orm";

/** What a list's machinery asks of the rows' query: the filter, the order and the page. */
export interface PageParts {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/** Runs a list over the rows `select` reads, within `scope`; the list's paging (query string, totals) is the caller's. */
export type Lister<Row, Page extends { data: Row[] }> = (
  select: (parts: PageParts) => Promise<Row[]>,
  scope?: SQL,
) => Promise<Page>;
