/**
 * How list endpoints read paging, sorting and filtering from the query string, shared by the
 * data provider (which writes it) and the server (which parses it):
 *   page=2&pageSize=20&sort=-createdAt,title&q=golf&status[eq]=approved&year[between]=2015,2020&id[in]=a,b
 * `sort` lists fields, "-" for descending. A filter is `field[operator]=value`; list values are comma
 * separated with "\," for a literal comma.
 * `after=<cursor>` or `before=<cursor>` pages from a row of an earlier answer (its `nextCursor` or
 * `prevCursor`) instead of by offset: keyset paging, as fast on the thousandth page as on the first.
 */
export const filterOperators = [
  "eq",
  "ne",
  "lt",
  "gt",
  "lte",
  "gte",
  "in",
  "nin",
  "contains",
  "ncontains",
  "startswith",
  "endswith",
  "between",
  "null",
  "nnull",
] as const;
export type FilterOperator = (typeof filterOperators)[number];

export interface ListFilter {
  field: string;
  operator: FilterOperator;
  value: string | string[] | null;
}

export interface ListSort {
  field: string;
  order: "asc" | "desc";
}

export interface ListQuery {
  page: number;
  pageSize: number;
  sort: ListSort[];
  filters: ListFilter[];
  q?: string;
  /** Keyset paging: the rows after (or before) the row this cursor names, in the same order. */
  cursor?: { direction: "after" | "before"; token: string };
}

export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 20;
const LIST_OPERATORS: ReadonlySet<FilterOperator> = new Set(["in", "nin", "between"]);
const FIELD = /^[A-Za-z][A-Za-z0-9_.]*$/;

export class ListQueryError extends Error {
  constructor(
    message: string,
    readonly parameter: string,
  ) {
    super(message);
  }
}

const escapeItem = (item: string) => item.replace(/\\/g, "\\\\").replace(/,/g, "\\,");

function splitItems(raw: string): string[] {
  const items: string[] = [];
  let current = "";
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char === "\\" && i + 1 < raw.length) current += raw[++i];
    else if (char === ",") {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items;
}

export function serializeListQuery(query: Partial<ListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.page !== undefined) params.set("page", String(query.page));
  if (query.pageSize !== undefined) params.set("pageSize", String(query.pageSize));
  if (query.sort?.length) params.set("sort", query.sort.map((s) => (s.order === "desc" ? "-" : "") + s.field).join(","));
  if (query.q) params.set("q", query.q);
  if (query.cursor) params.set(query.cursor.direction, query.cursor.token);
  for (const filter of query.filters ?? []) {
    const key = `${filter.field}[${filter.operator}]`;
    if (filter.operator === "null" || filter.operator === "nnull") params.append(key, "");
    else if (Array.isArray(filter.value)) params.append(key, filter.value.map(escapeItem).join(","));
    else params.append(key, filter.value ?? "");
  }
  return params;
}

function positiveInt(params: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ListQueryError(`${name} must be a whole number of at least 1`, name);
  if (value > max) throw new ListQueryError(`${name} must be at most ${max}`, name);
  return value;
}

/**
 * Parses and checks a list query against the fields a resource allows; anything else is refused
 * with the parameter named, never ignored.
 */
export function parseListQuery(
  params: URLSearchParams,
  allowed: { sort: readonly string[]; filter: readonly string[] },
): ListQuery {
  const query: ListQuery = {
    page: positiveInt(params, "page", 1, 1_000_000),
    pageSize: positiveInt(params, "pageSize", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    sort: [],
    filters: [],
  };
  const q = params.get("q");
  if (q) query.q = q;
  const [after, before] = [params.get("after"), params.get("before")];
  if (after !== null && before !== null) throw new ListQueryError("Send after or before, not both", "before");
  if (after) query.cursor = { direction: "after", token: after };
  if (before) query.cursor = { direction: "before", token: before };
  for (const part of (params.get("sort") ?? "").split(",").filter(Boolean)) {
    const field = part.startsWith("-") ? part.slice(1) : part;
    if (!allowed.sort.includes(field)) {
      throw new ListQueryError(`Cannot sort by "${field}"; sortable: ${allowed.sort.join(", ") || "none"}`, "sort");
    }
    query.sort.push({ field, order: part.startsWith("-") ? "desc" : "asc" });
  }
  for (const [key, raw] of params) {
    if (["page", "pageSize", "sort", "q", "after", "before"].includes(key)) continue;
    const match = /^([^[\]]+)\[([a-z]+)\]$/.exec(key);
    if (!match) throw new ListQueryError(`Unknown query parameter "${key}"`, key);
    const [, field, operator] = match;
    if (!FIELD.test(field) || !allowed.filter.includes(field)) {
      throw new ListQueryError(`Cannot filter by "${field}"; filterable: ${allowed.filter.join(", ") || "none"}`, key);
    }
    if (!(filterOperators as readonly string[]).includes(operator)) {
      throw new ListQueryError(`Unknown filter operator "${operator}" on "${field}"`, key);
    }
    const op = operator as FilterOperator;
    if (op === "null" || op === "nnull") query.filters.push({ field, operator: op, value: null });
    else if (LIST_OPERATORS.has(op)) {
      const items = splitItems(raw);
      if (op === "between" && items.length !== 2) throw new ListQueryError(`"${key}" needs two values: from,to`, key);
      query.filters.push({ field, operator: op, value: items });
    } else query.filters.push({ field, operator: op, value: raw });
  }
  return query;
}

/** What every list endpoint answers. */
export interface ListResponse<T> {
  data: T[];
  total: number;
  /** True when `total` is the planner's estimate (over a thousand matching rows). */
  totalEstimated?: boolean;
  /** Cursors of the last and first row, for `after` and `before`; absent when the order cannot be paged by keys. */
  nextCursor?: string;
  prevCursor?: string;
}
