import { describe, expect, it, vi } from "vitest";
import { createDataProvider } from "../../../../src/providers/data-provider";
import type { HttpClient } from "../../../../src/providers/http";

function fakeHttp(answer: unknown = { data: [], total: 0 }) {
  const request = vi.fn(
    async (_method: string, _path: string, options?: { expect?: (body: unknown) => string | null; body?: unknown }) => {
      const problem = options?.expect?.(answer);
      if (problem) throw new Error(problem);
      return answer;
    },
  );
  const http = {
    request,
    get: (path: string, options?: object) => request("GET", path, options),
    post: (path: string, body?: unknown, options?: object) => request("POST", path, { ...options, body }),
    put: (path: string, body?: unknown, options?: object) => request("PUT", path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: object) => request("PATCH", path, { ...options, body }),
    delete: (path: string, options?: object) => request("DELETE", path, options),
  } as unknown as HttpClient;
  return { http, request };
}

const queryOf = (request: ReturnType<typeof vi.fn>) => (request.mock.calls[0][2] as { query: URLSearchParams }).query;

describe("data provider", () => {
  it("maps pagination, sorters and filters of every operator onto the list query", async () => {
    const { http, request } = fakeHttp({ data: [{ id: 1 }], total: 41 });
    const result = await createDataProvider(http).getList({
      resource: "tune-files",
      pagination: { currentPage: 3, pageSize: 20 },
      sorters: [
        { field: "createdAt", order: "desc" },
        { field: "title", order: "asc" },
      ],
      filters: [
        { field: "status", operator: "eq", value: "published" },
        { field: "price", operator: "between", value: [10, 20] },
        { field: "firmwareId", operator: "in", value: ["A,1", "B"] },
        { field: "title", operator: "contains", value: "stage 1" },
        { field: "deletedAt", operator: "null", value: null },
        { field: "q", operator: "contains", value: "golf" },
        { field: "vin", operator: "eq", value: "" },
      ],
    });
    expect(result).toEqual({ data: [{ id: 1 }], total: 41 });
    expect(request.mock.calls[0][0]).toBe("GET");
    expect(request.mock.calls[0][1]).toBe("/api/v1/tune-files");
    expect(Object.fromEntries(queryOf(request))).toEqual({
      page: "3",
      pageSize: "20",
      sort: "-createdAt,title",
      q: "golf",
      "status[eq]": "published",
      "price[between]": "10,20",
      "firmwareId[in]": "A\\,1,B",
      "title[contains]": "stage 1",
      "deletedAt[null]": "",
    });
  });

  it("reads the next and previous page by the cursors of pages it read, and jumps by page number", async () => {
    const { http, request } = fakeHttp({
      data: [{ id: 1 }],
      total: 500,
      nextCursor: "last-of-page",
      prevCursor: "first-of-page",
    });
    const provider = createDataProvider(http);
    const list = (
      currentPage: number,
      sorters: Array<{ field: string; order: "asc" | "desc" }> = [{ field: "model", order: "asc" }],
    ) => provider.getList({ resource: "supported-vehicles", pagination: { currentPage, pageSize: 20 }, sorters });
    const queries = () =>
      request.mock.calls.map((call) => Object.fromEntries((call[2] as { query: URLSearchParams }).query));

    await list(1);
    await list(2);
    await list(7);
    await list(6);
    await list(2, [{ field: "make", order: "asc" }]);
    expect(queries()).toEqual([
      { page: "1", pageSize: "20", sort: "model" },
      { page: "2", pageSize: "20", sort: "model", after: "last-of-page" },
      { page: "7", pageSize: "20", sort: "model" },
      { page: "6", pageSize: "20", sort: "model", before: "first-of-page" },
      // Another order is another list: its pages are read by number until it has cursors of its own.
      { page: "2", pageSize: "20", sort: "make" },
    ]);
  });

  it("leaves paging out when pagination is off", async () => {
    const { http, request } = fakeHttp();
    await createDataProvider(http).getList({ resource: "users", pagination: { mode: "off" } });
    expect(queryOf(request).has("page")).toBe(false);
  });

  it("uses the resource's apiPath when it declares one", async () => {
    const { http, request } = fakeHttp();
    await createDataProvider(http).getList({
      resource: "obd-functions",
      meta: { apiPath: "firmware-support/obd-function" },
    });
    expect(request.mock.calls[0][1]).toBe("/api/v1/firmware-support/obd-function");
  });

  it("refuses filter groups and operators the API does not have, naming them", async () => {
    const { http } = fakeHttp();
    const provider = createDataProvider(http);
    await expect(
      provider.getList({
        resource: "x",
        filters: [{ operator: "or", value: [{ field: "a", operator: "eq", value: 1 }] }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, description: 'The API does not support "or" filter groups' });
    await expect(
      provider.getList({ resource: "x", filters: [{ field: "a", operator: "containss", value: "A" }] }),
    ).rejects.toMatchObject({
      description: 'The API does not support the "containss" operator (on a)',
    });
  });

  it("refuses a list answer without data and total", async () => {
    const { http } = fakeHttp({ rows: [] });
    await expect(createDataProvider(http).getList({ resource: "x" })).rejects.toThrow("expected { data: [...] }");
  });

  it("fetches many by id with an in filter", async () => {
    const { http, request } = fakeHttp({ data: [{ id: "a" }, { id: "b" }], total: 2 });
    const result = await createDataProvider(http).getMany!({ resource: "users", ids: ["a", "b"] });
    expect(result.data).toHaveLength(2);
    expect(Object.fromEntries(queryOf(request))).toEqual({ pageSize: "2", "id[in]": "a,b" });
  });

  it("gets, creates, patches and deletes one record at its path, encoding the id", async () => {
    const { http, request } = fakeHttp({ id: "a/b" });
    const provider = createDataProvider(http);
    await provider.getOne({ resource: "users", id: "a/b" });
    await provider.create({ resource: "users", variables: { email: "x@y.z" } });
    await provider.update({ resource: "users", id: "a/b", variables: { displayName: "X" } });
    await provider.deleteOne({ resource: "users", id: "a/b" });
    expect(request.mock.calls.map(([method, path]) => `${method} ${path}`)).toEqual([
      "GET /api/v1/users/a%2Fb",
      "POST /api/v1/users",
      "PATCH /api/v1/users/a%2Fb",
      "DELETE /api/v1/users/a%2Fb",
    ]);
    expect((request.mock.calls[2][2] as { body: unknown }).body).toEqual({ displayName: "X" });
  });

  it("turns variables into a multipart form when the resource uploads, keeping files as files", async () => {
    const { http, request } = fakeHttp({ id: "1" });
    const file = new Blob([new Uint8Array([0xde, 0xad])]);
    await createDataProvider(http).create({
      resource: "data-logs",
      variables: { file, title: "Pull 1", tags: ["3rd gear"] },
      meta: { multipart: true },
    });
    const body = (request.mock.calls[0][2] as { body: FormData }).body;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get("title")).toBe("Pull 1");
    expect(body.get("tags")).toBe('["3rd gear"]');
    expect(body.get("file")).toBeInstanceOf(Blob);
  });

  it("sends custom calls under /api/v1 unless given an absolute path", async () => {
    const { http, request } = fakeHttp({ ok: true });
    const provider = createDataProvider(http);
    await provider.custom!({ url: "status", method: "get" });
    await provider.custom!({ url: "/api/__session", method: "post", payload: { token: null } });
    expect(request.mock.calls.map(([method, path]) => `${method} ${path}`)).toEqual([
      "GET /api/v1/status",
      "POST /api/__session",
    ]);
  });

  it("writes a custom call's filters and sorters (useCustom's config) into its list query", async () => {
    const { http, request } = fakeHttp();
    await createDataProvider(http).custom!({
      url: "tuning-requests",
      method: "get",
      filters: [
        { field: "state", operator: "in", value: ["paid", "in-progress"] },
        { field: "dueAt", operator: "lt", value: "2026-12-06T10:00:00.000Z" },
      ],
      sorters: [{ field: "dueAt", order: "asc" }],
      query: { page: 2, pageSize: 20 },
    });
    expect(queryOf(request).toString()).toBe(
      new URLSearchParams({
        sort: "dueAt",
        "state[in]": "paid,in-progress",
        "dueAt[lt]": "2026-12-06T10:00:00.000Z",
        page: "2",
        pageSize: "20",
      }).toString(),
    );
  });

  it("asks for a Blob when meta.responseType is blob (binary downloads)", async () => {
    const { http, request } = fakeHttp({ ok: true });
    const provider = createDataProvider(http);
    await provider.custom!({ url: "data-logs/1/columns", method: "get", meta: { responseType: "blob" } });
    await provider.custom!({ url: "status", method: "get" });
    expect(request.mock.calls.map((call) => (call[2] as { responseType?: string }).responseType)).toEqual([
      "blob",
      undefined,
    ]);
  });
});
