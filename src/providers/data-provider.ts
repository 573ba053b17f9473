import type { BaseRecord, CrudFilter, CrudSort, DataProvider, LogicalFilter } from "@refinedev/core";
import { apiPathOf } from "../../contracts/api-paths";
import {
  type FilterOperator,
  filterOperators,
  type ListFilter,
  type ListResponse,
  type ListSort,
  serializeListQuery,
} from "../../contracts/list-query";
import type { HttpClient, RequestOptions } from "./http";
import { httpError } from "./http";

export const API_PREFIX = "/api/v1";

/**
 * A resource's API path: `meta.apiPath` when the call or the resource declares one, else the
 * resource's list path in the API path table, else its name.
 */
function pathOf(resource: string, meta?: Record<string, unknown>): string {
  const apiPath = typeof meta?.apiPath === "string" ? meta.apiPath : (apiPathOf(resource)?.list ?? resource);
  return `${API_PREFIX}/${apiPath.replace(/^\/+/, "")}`;
}

const SUPPORTED: ReadonlySet<string> = new Set(filterOperators);

function toListFilters(filters: CrudFilter[] = []): { filters: ListFilter[]; q?: string } {
  const result: ListFilter[] = [];
  let q: string | undefined;
  for (const filter of filters) {
    if (filter.operator === "or" || filter.operator === "and") {
      throw httpError(400, "Unsupported filter", `The API does not support "${filter.operator}" filter groups`);
    }
    const logical = filter as LogicalFilter;
    const empty =
      logical.value === undefined ||
      logical.value === "" ||
      (Array.isArray(logical.value) && logical.value.length === 0);
    if (empty && logical.operator !== "null" && logical.operator !== "nnull") continue;
    if (logical.field === "q") {
      q = String(logical.value);
      continue;
    }
    if (!SUPPORTED.has(logical.operator)) {
      throw httpError(
        400,
        "Unsupported filter",
        `The API does not support the "${logical.operator}" operator (on ${logical.field})`,
      );
    }
    const value = Array.isArray(logical.value)
      ? logical.value.map((item: unknown) => (item instanceof Date ? item.toISOString() : String(item)))
      : logical.value === null
        ? null
        : logical.value instanceof Date
          ? logical.value.toISOString()
          : String(logical.value);
    result.push({ field: logical.field, operator: logical.operator as FilterOperator, value });
  }
  return { filters: result, q };
}

const toListSorts = (sorters: CrudSort[] = []): ListSort[] => sorters.map((s) => ({ field: s.field, order: s.order }));

function expectList(body: unknown): string | null {
  const list = body as { data?: unknown; total?: unknown } | null;
  if (!list || !Array.isArray(list.data)) return "expected { data: [...] }";
  if (typeof list.total !== "number") return "expected a numeric total";
  return null;
}

function expectRecord(body: unknown): string | null {
  return body && typeof body === "object" && !Array.isArray(body) ? null : "expected an object";
}

function requestOptions(
  meta?: Record<string, unknown>,
): Pick<RequestOptions, "signal" | "headers" | "onUploadProgress" | "responseType"> {
  return {
    signal:
      (meta?.queryContext as { signal?: AbortSignal } | undefined)?.signal ?? (meta?.signal as AbortSignal | undefined),
    headers: meta?.headers as Record<string, string> | undefined,
    onUploadProgress: meta?.onUploadProgress as ((fraction: number) => void) | undefined,
    // meta.responseType "blob" answers binary bodies (files, a log's columns) as a Blob.
    responseType: meta?.responseType === "blob" ? "blob" : undefined,
  };
}

/** Uploads: a FormData variable, or meta.multipart turning plain variables into form fields. */
function bodyOf(variables: unknown, meta?: Record<string, unknown>): unknown {
  if (!meta?.multipart || variables instanceof FormData) return variables;
  const form = new FormData();
  for (const [key, value] of Object.entries(variables as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value);
    else form.append(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return form;
}

type Query = RequestOptions["query"];

/**
 * A custom call's own query with useCustom's `filters` and `sorters` written as the list query,
 * as getList writes them: Refine hands them to `custom` apart from the query.
 */
function withListQuery(query: unknown, filters?: CrudFilter[], sorters?: CrudSort[]): URLSearchParams {
  const { filters: listFilters, q } = toListFilters(filters);
  const params = serializeListQuery({ sort: toListSorts(sorters), filters: listFilters, q });
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>))
    if (value !== undefined) params.set(key, String(value));
  return params;
}

/** Keyset cursors of the pages a list answered, kept for the lists most recently read. */
const CURSOR_LISTS = 100;
type PageCursors = Map<number, { prev?: string; next?: string }>;

/**
 * Which cursor reads `page`: the next page after one read before goes `after`
 * its last row, the previous one `before` its first, so paging on through a
 * large list costs the server an index range scan instead of an offset.
 */
function cursorFor(
  pages: PageCursors | undefined,
  page: number,
): { direction: "after" | "before"; token: string } | undefined {
  const after = pages?.get(page - 1)?.next;
  if (after) return { direction: "after", token: after };
  const before = pages?.get(page + 1)?.prev;
  if (before) return { direction: "before", token: before };
  return undefined;
}

/** Refine's data provider over our API; `custom` is always there (the public site's pages call it directly). */
export function createDataProvider(http: HttpClient): DataProvider & { custom: NonNullable<DataProvider["custom"]> } {
  const cursors = new Map<string, PageCursors>();
  return {
    getApiUrl: () => API_PREFIX,

    async getList({ resource, pagination, sorters, filters, meta }) {
      const { filters: listFilters, q } = toListFilters(filters);
      const paged = pagination?.mode !== "off" && pagination?.mode !== "client";
      const path = pathOf(resource, meta);
      const page = pagination?.currentPage ?? 1;
      const list = { pageSize: pagination?.pageSize ?? 10, sort: toListSorts(sorters), filters: listFilters, q };
      const listKey = `${path}?${serializeListQuery(list)}`;
      const pages = cursors.get(listKey);
      const query = serializeListQuery(
        paged ? { ...list, page, cursor: cursorFor(pages, page) } : { ...list, pageSize: undefined },
      );
      const body = await http.get<ListResponse<BaseRecord>>(path, {
        ...requestOptions(meta),
        query,
        expect: expectList,
      });
      if (paged && (body.nextCursor || body.prevCursor)) {
        cursors.delete(listKey);
        if (cursors.size >= CURSOR_LISTS) cursors.delete(cursors.keys().next().value!);
        cursors.set(listKey, (pages ?? new Map()).set(page, { prev: body.prevCursor, next: body.nextCursor }));
      }
      return { data: body.data as never[], total: body.total };
    },

    async getMany({ resource, ids, meta }) {
      const query = serializeListQuery({
        pageSize: Math.max(ids.length, 1),
        filters: [{ field: "id", operator: "in", value: ids.map(String) }],
      });
      const body = await http.get<{ data: BaseRecord[] }>(pathOf(resource, meta), {
        ...requestOptions(meta),
        query,
        expect: expectList,
      });
      return { data: body.data as never[] };
    },

    async getOne({ resource, id, meta }) {
      const data = await http.get<BaseRecord>(`${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`, {
        ...requestOptions(meta),
        expect: expectRecord,
      });
      return { data: data as never };
    },

    async create({ resource, variables, meta }) {
      const data = await http.post<BaseRecord>(pathOf(resource, meta), bodyOf(variables, meta), requestOptions(meta));
      return { data: data as never };
    },

    async update({ resource, id, variables, meta }) {
      const method = meta?.method === "put" ? "PUT" : "PATCH";
      const data = await http.request<BaseRecord>(
        method,
        `${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`,
        {
          ...requestOptions(meta),
          body: bodyOf(variables, meta),
        },
      );
      return { data: data as never };
    },

    async deleteOne({ resource, id, meta }) {
      const data = await http.delete<BaseRecord>(
        `${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`,
        requestOptions(meta),
      );
      return { data: (data ?? { id }) as never };
    },

    async custom({ url, method, payload, query, headers, filters, sorters, meta }) {
      const path = url.startsWith("/") ? url : `${API_PREFIX}/${url}`;
      const data = await http.request<BaseRecord>(method.toUpperCase(), path, {
        ...requestOptions(meta),
        headers: headers as Record<string, string> | undefined,
        body: payload,
        query: filters?.length || sorters?.length ? withListQuery(query, filters, sorters) : (query as Query),
      });
      return { data: data as never };
    },
  };
}
