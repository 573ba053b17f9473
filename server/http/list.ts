/**
 * One way for every list endpoint to turn the query string (contracts/list-query)
 * into SQL: filters and sorting on declared fields only, text search, paging
 * and a total, with the costs bounded however large the table grows.
 *
 * - Search (`q`) is `ILIKE '%q%'` over one expression per resource; a trigram
 *   GIN index on exactly that expression (pg_trgm) serves it.
 * - Paging is by keys when the client sends a cursor (`after`/`before`, from an
 *   answer's `nextCursor`/`prevCursor`): the page starts where an index range
 *   scan starts, so the thousandth page costs what the first does. Cursors are
 *   offered when every sort field is a NOT NULL column of the listed table.
 * - Otherwise paging is by offset, capped at MAX_OFFSET rows: past that the answer is a
 *   400 asking for a narrower filter, so no request walks the whole table.
 *   Past DEFERRED_OFFSET, the ids of the page are found first (an index-only
 *   scan) and only those rows are read. Every sort ends with the row's id, so
 *   pages never overlap or skip rows.
 * - The total is exact up to COUNT_CAP matching rows (a count over at most
 *   COUNT_CAP + 1 rows, which an index answers quickly). Beyond it, the total is
 *   the planner's row estimate for the same filter (EXPLAIN, which uses
 *   pg_class.reltuples and column statistics) and the answer says
 *   `totalEstimated: true`; it is never less than COUNT_CAP + 1. An estimate is
 *   kept for ESTIMATE_TTL_MS per filter, so paging a large result does not count
 *   on every page.
 */
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  is,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  not,
  notInArray,
  type SQL,
  sql,
} from "drizzle-orm";
import { PgArray, PgColumn, PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type ListFilter,
  type ListQuery,
  ListQueryError,
  type ListSort,
  type ListValueType,
  listValue,
  parseListQuery,
} from "../../contracts/list-query";
import type { Db } from "../db/connection";
import { badRequest } from "../errors";

export const MAX_OFFSET = 10_000;
export const COUNT_CAP = 1_000;
export const DEFERRED_OFFSET = 1_000;
export const ESTIMATE_TTL_MS = 10_000;

export type FieldKind = "text" | "uuid" | "number" | "timestamp" | "boolean" | "array";

export interface ListField {
  /**
   * A column, or an SQL expression for derived fields (e.g. "has a stock file"). For a column,
   * its SQL type decides which values and operators a filter takes (fieldType); `kind` and
   * `arrayType` must agree with it (tests/api/list-fuzz.test.ts checks every declared list).
   */
  column: PgColumn | SQL;
  kind: FieldKind;
  /** Element type of an array column, for the overlap cast. */
  arrayType?: "text" | "uuid";
}

/** What a field holds: its kind, the type of its values (an array's elements) and an array's element SQL type. */
export interface FieldType {
  kind: FieldKind;
  value: ListValueType;
  arrayType?: "text" | "uuid";
}

const SQL_VALUE_TYPES: Array<[RegExp, ListValueType]> = [
  [/^(smallint|int2|smallserial)$/, "smallint"],
  [/^(integer|int|int4|serial)$/, "integer"],
  [/^(bigint|int8|bigserial)$/, "bigint"],
  [/^(real|float4)$/, "real"],
  [/^(double precision|float8)$/, "double"],
  [/^(numeric|decimal)/, "numeric"],
  [/^uuid$/, "uuid"],
  [/^boolean$/, "boolean"],
  [/^(timestamp|date)/, "timestamp"],
];
const KIND_OF_VALUE: Record<ListValueType, FieldKind> = {
  text: "text",
  uuid: "uuid",
  smallint: "number",
  integer: "number",
  bigint: "number",
  real: "number",
  double: "number",
  numeric: "number",
  timestamp: "timestamp",
  boolean: "boolean",
};

/**
 * The field's type: from its column's SQL type when it is a column (so a filter value is
 * checked against what the database stores), else from its declared kind.
 */
export function fieldType(field: ListField): FieldType {
  if (is(field.column, PgColumn)) {
    const array = is(field.column, PgArray);
    const sqlType = (array ? (field.column as PgArray<never, never>).baseColumn : field.column)
      .getSQLType()
      .toLowerCase();
    const value = SQL_VALUE_TYPES.find(([pattern]) => pattern.test(sqlType))?.[1] ?? "text";
    if (array) return { kind: "array", value, arrayType: value === "uuid" ? "uuid" : "text" };
    return { kind: KIND_OF_VALUE[value], value };
  }
  const value: ListValueType =
    field.kind === "array" ? (field.arrayType ?? "text") : field.kind === "number" ? "double" : field.kind;
  return { kind: field.kind, value, ...(field.kind === "array" && { arrayType: field.arrayType ?? "text" }) };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The list this GET route answers (listQueryOf/runList): recorded by installListRegistry. */
    list?: ListSpec;
  }
}

/** A list route as registered: where it is, who may call it, and its spec. */
export interface DeclaredList {
  url: string;
  role?: string;
  spec: ListSpec;
}

const declared = new WeakMap<FastifyInstance, DeclaredList[]>();

/**
 * Records every route that declares `config.list`, so tests can walk the real declarations
 * (every list, every filter) instead of a copy. Install on the root before routes are added.
 */
export function installListRegistry(app: FastifyInstance): void {
  const lists: DeclaredList[] = [];
  declared.set(app, lists);
  app.addHook("onRoute", (route) => {
    const config = route.config as { list?: ListSpec; role?: string } | undefined;
    const methods = [route.method].flat();
    if (config?.list && methods.includes("GET")) lists.push({ url: route.url, role: config.role, spec: config.list });
  });
}

/** The list routes `app` declared (see installListRegistry). */
export const declaredLists = (app: FastifyInstance): readonly DeclaredList[] => declared.get(app) ?? [];

export interface ListSpec {
  table: PgTable;
  /** Unique, indexed: the last sort key, so paging is stable. */
  id: PgColumn;
  fields: Record<string, ListField>;
  allowed: { readonly sort: readonly string[]; readonly filter: readonly string[] };
  /** The expression the trigram index is built on. */
  search?: SQL;
  defaultSort: ListSort[];
}

export interface ListPage<Row> {
  data: Row[];
  total: number;
  totalEstimated: boolean;
  nextCursor?: string;
  prevCursor?: string;
}

const valueTypes = new WeakMap<ListSpec["fields"], Record<string, ListValueType>>();

/** Each field's value type, worked out once per list (the fields are declared once, at start). */
function valueTypesOf(fields: ListSpec["fields"]): Record<string, ListValueType> {
  let types = valueTypes.get(fields);
  if (!types) {
    types = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldType(field).value]));
    valueTypes.set(fields, types);
  }
  return types;
}

/** Parses the request's query string against the list's allowed fields; a bad parameter is a 400 naming it. */
export function listQueryOf(request: FastifyRequest, spec: Pick<ListSpec, "allowed" | "fields">): ListQuery {
  const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
  try {
    const query = parseListQuery(new URLSearchParams(search), spec.allowed, valueTypesOf(spec.fields));
    if (!query.cursor && (query.page - 1) * query.pageSize >= MAX_OFFSET) {
      throw new ListQueryError(`Pages end after ${MAX_OFFSET} rows; narrow the search or the filters`, "page");
    }
    return query;
  } catch (error) {
    if (error instanceof ListQueryError) {
      throw badRequest("Invalid query", error.message, [{ path: error.parameter, message: error.problem }]);
    }
    throw error;
  }
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One value of the field, checked by its type (contracts/list-query listValue); a 400 naming the parameter. */
function scalar(type: ListValueType, raw: string, parameter: string): unknown {
  const checked = listValue(type, raw);
  if ("problem" in checked)
    throw badRequest("Invalid query", `${parameter} ${checked.problem}`, [
      { path: parameter, message: checked.problem },
    ]);
  return checked.value;
}

function filterCondition(declaredField: ListField, filter: ListFilter): SQL {
  const parameter = `${filter.field}[${filter.operator}]`;
  // As SQL, a column and a derived expression are treated alike.
  const column = sql`${declaredField.column}`;
  const field = fieldType(declaredField);
  const values = Array.isArray(filter.value) ? filter.value : [filter.value ?? ""];
  const one = () => scalar(field.value, values[0], parameter);
  const many = () => values.map((v) => scalar(field.value, v, parameter));
  const refuse = () => {
    throw badRequest("Invalid query", `${parameter}: "${filter.operator}" does not apply to ${filter.field}`, [
      { path: parameter, message: `operator "${filter.operator}" does not apply to this field` },
    ]);
  };

  if (filter.operator === "null") return isNull(column);
  if (filter.operator === "nnull") return isNotNull(column);

  if (field.kind === "array") {
    // "applies to X": the array holds X (eq) or any of the values (in); ne/nin are the negations.
    const list = sql`ARRAY[${sql.join(
      many().map((v) => sql`${v}`),
      sql`, `,
    )}]::${sql.raw(field.arrayType ?? "text")}[]`;
    if (filter.operator === "eq" || filter.operator === "in") return sql`${column} && ${list}`;
    if (filter.operator === "ne" || filter.operator === "nin") return sql`NOT (${column} && ${list})`;
    return refuse();
  }

  switch (filter.operator) {
    case "eq":
      return eq(column, one());
    case "ne":
      return ne(column, one());
    case "in":
      return inArray(column, many());
    case "nin":
      return notInArray(column, many());
    case "between": {
      const [from, to] = many();
      return and(gte(column, from), lte(column, to))!;
    }
    case "lt":
    case "gt":
    case "lte":
    case "gte": {
      if (field.kind === "text" || field.kind === "uuid" || field.kind === "boolean") return refuse();
      return { lt, gt, lte, gte }[filter.operator](column, one());
    }
    case "contains":
    case "ncontains":
    case "startswith":
    case "endswith": {
      if (field.kind !== "text") return refuse();
      const value = likeEscape(values[0]);
      const pattern =
        filter.operator === "startswith" ? `${value}%` : filter.operator === "endswith" ? `%${value}` : `%${value}%`;
      const like = sql`${column} ILIKE ${pattern}`;
      return filter.operator === "ncontains" ? not(like) : like;
    }
  }
  return refuse();
}

/** The WHERE of a list query: its filters, its search, and any condition the route adds (scoping). */
export function listWhere(spec: ListSpec, query: ListQuery, scope?: SQL): SQL | undefined {
  const conditions: SQL[] = [];
  if (scope) conditions.push(scope);
  for (const filter of query.filters) conditions.push(filterCondition(spec.fields[filter.field], filter));
  if (query.q && spec.search) conditions.push(sql`${spec.search} ILIKE ${`%${likeEscape(query.q)}%`}`);
  return conditions.length ? and(...conditions) : undefined;
}

export function listOrder(spec: ListSpec, query: ListQuery): SQL[] {
  const sorts = query.sort.length ? query.sort : spec.defaultSort;
  const order = sorts.map((s) => {
    const column = sql`${spec.fields[s.field].column}`;
    return s.order === "desc" ? desc(column) : asc(column);
  });
  const last = sorts[sorts.length - 1];
  order.push(last?.order === "desc" ? desc(spec.id) : asc(spec.id));
  return order;
}

type Rows = { rows: Record<string, unknown>[] };

const dialect = new PgDialect();
/** Per database (tests run several), per filter: the estimated total and when it was made. */
const estimates = new WeakMap<Db, Map<string, { total: number; at: number }>>();

function estimateCache(db: Db): Map<string, { total: number; at: number }> {
  let cache = estimates.get(db);
  if (!cache) estimates.set(db, (cache = new Map()));
  return cache;
}

/** Exact up to COUNT_CAP, else the planner's estimate, kept a while (see the top of this file). */
export async function listTotal(
  db: Db,
  spec: ListSpec,
  where: SQL | undefined,
): Promise<{ total: number; estimated: boolean }> {
  const whereSql = where ? sql`WHERE ${where}` : sql``;
  const rendered = dialect.sqlToQuery(sql`${spec.table} ${whereSql}`);
  const key = JSON.stringify([rendered.sql, rendered.params]);
  const cache = estimateCache(db);
  const kept = cache.get(key);
  if (kept && Date.now() - kept.at < ESTIMATE_TTL_MS) return { total: kept.total, estimated: true };
  const capped = (await db.execute(
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${spec.table} ${whereSql} LIMIT ${COUNT_CAP + 1}) capped`,
  )) as unknown as Rows;
  const n = Number(capped.rows[0].n);
  if (n <= COUNT_CAP) {
    cache.delete(key);
    return { total: n, estimated: false };
  }
  const plan = (await db.execute(
    sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${spec.table} ${whereSql}`,
  )) as unknown as Rows;
  const raw = plan.rows[0]["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: { "Plan Rows": number } }>;
  const total = Math.max(COUNT_CAP + 1, Math.round(parsed[0].Plan["Plan Rows"]));
  if (cache.size > 1000) cache.clear();
  cache.set(key, { total, at: Date.now() });
  return { total, estimated: true };
}

interface KeyPart {
  field: string;
  column: PgColumn;
  /** The column's property in a selected row. */
  property: string;
  /** The type a cursor's copy of the key is checked against. */
  type: ListValueType;
  order: "asc" | "desc";
}

/** The sort as key columns ending with the id, or null when it cannot be paged by keys (a derived or nullable field). */
function keysetOf(spec: ListSpec, sorts: ListSort[]): KeyPart[] | null {
  const properties = new Map(
    Object.entries(getTableColumns(spec.table)).map(([property, column]) => [column, property]),
  );
  const parts: KeyPart[] = [];
  for (const s of sorts) {
    const field = spec.fields[s.field];
    const column = field.column;
    if (!is(column, PgColumn) || !column.notNull || !properties.has(column)) return null;
    parts.push({
      field: s.field,
      column,
      property: properties.get(column)!,
      type: fieldType(field).value,
      order: s.order,
    });
  }
  const idProperty = properties.get(spec.id);
  if (!idProperty) return null;
  parts.push({
    field: "id",
    column: spec.id,
    property: idProperty,
    type: fieldType({ column: spec.id, kind: "uuid" }).value,
    order: sorts[sorts.length - 1]?.order ?? "asc",
  });
  return parts;
}

const signatureOf = (keys: KeyPart[]) => keys.map((k) => (k.order === "desc" ? "-" : "") + k.field).join(",");

function encodeCursor(keys: KeyPart[], row: Record<string, unknown>): string | undefined {
  const values = keys.map((k) => row[k.property]);
  if (values.some((v) => v === undefined || v === null)) return undefined;
  const json = JSON.stringify({
    s: signatureOf(keys),
    v: values.map((v) => (v instanceof Date ? v.toISOString() : v)),
  });
  return Buffer.from(json).toString("base64url");
}

function decodeCursor(keys: KeyPart[], token: string, parameter: string): unknown[] {
  const refuse = (why: string) =>
    badRequest("Invalid query", `${parameter}: ${why}; start again from the first page`, [
      { path: parameter, message: why },
    ]);
  let decoded: { s?: unknown; v?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw refuse("not a cursor this list gave out");
  }
  if (decoded.s !== signatureOf(keys)) throw refuse("the cursor belongs to another order of this list");
  const values = decoded.v;
  if (!Array.isArray(values) || values.length !== keys.length) throw refuse("not a cursor this list gave out");
  return keys.map((k, i) => scalar(k.type, String(values[i]), parameter));
}

/**
 * Rows strictly after (or before) the cursor row in the list's order. The
 * cursor row's keys are read from the row itself (a timestamp in the cursor
 * has milliseconds, the column microseconds); the cursor's copies stand in
 * when that row was deleted meanwhile.
 */
function keysetCondition(spec: ListSpec, keys: KeyPart[], values: unknown[], forward: boolean): SQL {
  const id = values[values.length - 1];
  const key = keys.map((k, i) =>
    i === keys.length - 1
      ? sql`${id}`
      : sql`COALESCE((SELECT ${k.column} FROM ${spec.table} WHERE ${spec.id} = ${id}), ${values[i]})`,
  );
  if (keys.every((k) => k.order === keys[0].order)) {
    // One direction: a row comparison, which an index on the same columns answers with a range scan.
    const op = (keys[0].order === "asc") === forward ? sql`>` : sql`<`;
    return sql`(${sql.join(
      keys.map((k) => sql`${k.column}`),
      sql`, `,
    )}) ${op} (${sql.join(key, sql`, `)})`;
  }
  const later = (k: KeyPart) => ((k.order === "asc") === forward ? sql`>` : sql`<`);
  const branches = keys.map((k, i) =>
    sql.join(
      [...keys.slice(0, i).map((prior, j) => sql`${prior.column} = ${key[j]}`), sql`${k.column} ${later(k)} ${key[i]}`],
      sql` AND `,
    ),
  );
  return sql`(${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` OR `,
  )})`;
}

function keysetOrder(keys: KeyPart[], reverse: boolean): SQL[] {
  return keys.map((k) => ((k.order === "asc") !== reverse ? asc(k.column) : desc(k.column)));
}

/**
 * Runs a list query. `select` is given the where/order/limit/offset to apply,
 * so a route chooses its own columns (and joins) while the rules stay here.
 */
export async function runList<Row>(
  db: Db,
  spec: ListSpec,
  query: ListQuery,
  select: (parts: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number }) => Promise<Row[]>,
  scope?: SQL,
): Promise<ListPage<Row>> {
  const where = listWhere(spec, query, scope);
  const keys = keysetOf(spec, query.sort.length ? query.sort : spec.defaultSort);
  const limit = query.pageSize;
  const offset = (query.page - 1) * query.pageSize;
  // The page's query is chosen (and a cursor checked) before any query runs.
  let readRows: () => Promise<Row[]>;
  if (query.cursor) {
    const parameter = query.cursor.direction;
    if (!keys)
      throw badRequest("Invalid query", `${parameter}: this order cannot be paged by cursor; use page`, [
        { path: parameter, message: "not available for this sort" },
      ]);
    const forward = parameter === "after";
    const condition = keysetCondition(spec, keys, decodeCursor(keys, query.cursor.token, parameter), forward);
    readRows = async () => {
      const rows = await select({
        where: and(where, condition),
        orderBy: keysetOrder(keys, !forward),
        limit,
        offset: 0,
      });
      return forward ? rows : rows.reverse();
    };
  } else if (offset >= DEFERRED_OFFSET) {
    // The page's ids from the index alone, then just those rows: skipping rows costs index entries, not row reads.
    const orderBy = listOrder(spec, query);
    readRows = async () => {
      const ids = (
        await db
          .select({ id: spec.id })
          .from(spec.table)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map((r) => r.id);
      return ids.length ? select({ where: inArray(spec.id, ids), orderBy, limit, offset: 0 }) : [];
    };
  } else readRows = () => select({ where, orderBy: listOrder(spec, query), limit, offset });
  const [rows, count] = await Promise.all([readRows(), listTotal(db, spec, where)]);
  let { total, estimated } = count;
  // A short page read by offset ends the result: its total is exact, whatever was estimated.
  if (estimated && !query.cursor && rows.length < limit && (rows.length > 0 || offset === 0))
    [total, estimated] = [offset + rows.length, false];
  const page: ListPage<Row> = { data: rows, total, totalEstimated: estimated };
  if (keys && rows.length) {
    page.prevCursor = encodeCursor(keys, rows[0] as Record<string, unknown>);
    page.nextCursor = encodeCursor(keys, rows[rows.length - 1] as Record<string, unknown>);
  }
  return page;
}
