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

/**
 * The type of the column a filter compares with, which decides what its values may be: the
 * database refuses (with an error, not a 400) text holding a NUL character, a fraction or an
 * out-of-range number for an integer column, a date outside its calendar, a malformed UUID.
 * Values are checked here so that every such value is a 400 naming its parameter.
 * - text: anything without a NUL character (PostgreSQL text cannot hold one);
 * - uuid: the canonical 8-4-4-4-12 hexadecimal form;
 * - smallint, integer, bigint: a whole number in the column's range (bigint: within ±2^53 - 1,
 *   which a JavaScript number holds exactly);
 * - real, double, numeric: a finite decimal number in the column's range;
 * - timestamp: an ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T12:00:00Z`,
 *   `…+02:00`) that exists in the calendar, years 0001 to 9999. PostgreSQL keeps 4713 BC to
 *   294276 AD, but year 0 and expanded years are refused by its input, and no list needs them;
 * - boolean: `true` or `false`.
 */
export type ListValueType =
  | "text"
  | "uuid"
  | "smallint"
  | "integer"
  | "bigint"
  | "real"
  | "double"
  | "numeric"
  | "timestamp"
  | "boolean";

/** The largest value of a PostgreSQL integer (int4) column. */
export const INT4_MAX = 2_147_483_647;
const INTEGER_RANGES = {
  smallint: [-32_768, 32_767],
  integer: [-INT4_MAX - 1, INT4_MAX],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
} as const;
/** Largest magnitude and smallest normal magnitude: real (float4) and double precision (float8). */
const FLOAT_RANGES = {
  real: [3.4028234663852886e38, 1.1754943508222875e-38],
  double: [Number.MAX_VALUE, 2.2250738585072014e-308],
} as const;
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export type ListValue = string | number | boolean | Date;

/** A value of the given type, or what is wrong with it (a message that reads after the parameter's name). */
export function listValue(type: ListValueType, raw: string): { value: ListValue } | { problem: string } {
  if (raw.includes("\u0000")) return { problem: "must not contain a NUL character" };
  switch (type) {
    case "text":
      return { value: raw };
    case "uuid":
      return UUID.test(raw) ? { value: raw } : { problem: "must be an id (a UUID)" };
    case "boolean":
      return raw === "true" || raw === "false" ? { value: raw === "true" } : { problem: "must be true or false" };
    case "smallint":
    case "integer":
    case "bigint": {
      const [min, max] = INTEGER_RANGES[type];
      const n = DECIMAL.test(raw) ? Number(raw) : NaN;
      return Number.isInteger(n) && n >= min && n <= max
        ? { value: n }
        : { problem: `must be a whole number from ${min} to ${max}` };
    }
    case "real":
    case "double":
    case "numeric": {
      if (!DECIMAL.test(raw)) return { problem: "must be a number" };
      const n = Number(raw);
      if (type === "numeric") return Number.isFinite(n) ? { value: n } : { problem: "must be a finite number" };
      const [largest, smallest] = FLOAT_RANGES[type];
      const size = Math.abs(n);
      return size <= largest && (size === 0 || size >= smallest)
        ? { value: n }
        : { problem: `must be a number of magnitude ${smallest} to ${largest}, or 0` };
    }
    case "timestamp": {
      const match = ISO_DATE.exec(raw);
      if (!match) return { problem: "must be an ISO 8601 date or date-time, such as 2024-05-01T12:00:00Z" };
      const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
      const monthDays = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
      if (day < 1 || day > monthDays || hour > 23 || minute > 59 || second > 59)
        return { problem: "must be a date and time that exist in the calendar" };
      const date = new Date(raw);
      const utcYear = date.getUTCFullYear();
      if (year < 1 || Number.isNaN(date.getTime()) || utcYear < 1 || utcYear > 9999)
        return { problem: "must be a date in the years 0001 to 9999" };
      return { value: date };
    }
  }
}

/** True when a column of the type can store the value (listValue): for the schemas of bodies. */
export const storable = (type: ListValueType, value: string | number): boolean =>
  "value" in listValue(type, String(value));

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 20;
const LIST_OPERATORS: ReadonlySet<FilterOperator> = new Set(["in", "nin", "between"]);
const FIELD = /^[A-Za-z][A-Za-z0-9_.]*$/;

export class ListQueryError extends Error {
  constructor(
    message: string,
    readonly parameter: string,
    /** What is wrong with the value, without the parameter's name (the field issue's message). */
    readonly problem: string = message,
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
  if (query.sort?.length)
    params.set("sort", query.sort.map((s) => (s.order === "desc" ? "-" : "") + s.field).join(","));
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
  if (!Number.isInteger(value) || value < 1)
    throw new ListQueryError(`${name} must be a whole number of at least 1`, name);
  if (value > max) throw new ListQueryError(`${name} must be at most ${max}`, name);
  return value;
}

/** Refuses a value its field's type cannot hold (see ListValueType); text when the type is not given. */
function checkValue(type: ListValueType | undefined, raw: string, parameter: string): void {
  const checked = listValue(type ?? "text", raw);
  if ("problem" in checked) throw new ListQueryError(`${parameter} ${checked.problem}`, parameter, checked.problem);
}

/**
 * Parses and checks a list query against the fields a resource allows; anything else is refused
 * with the parameter named, never ignored. `types` gives each filterable field's value type
 * (the server's column types), and every filter value is checked against it.
 */
export function parseListQuery(
  params: URLSearchParams,
  allowed: { sort: readonly string[]; filter: readonly string[] },
  types: Readonly<Record<string, ListValueType>> = {},
): ListQuery {
  const query: ListQuery = {
    page: positiveInt(params, "page", 1, 1_000_000),
    pageSize: positiveInt(params, "pageSize", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    sort: [],
    filters: [],
  };
  const q = params.get("q");
  if (q) {
    checkValue("text", q, "q");
    query.q = q;
  }
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
      for (const item of items) checkValue(types[field], item, key);
      query.filters.push({ field, operator: op, value: items });
    } else {
      checkValue(types[field], raw, key);
      query.filters.push({ field, operator: op, value: raw });
    }
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
