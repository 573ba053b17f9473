import { describe, expect, it, type Mock, vi } from "vitest";
import { createHttpClient } from "../../../../src/providers/http";

function jsonResponse(status: number, body: unknown, contentType = "application/json") {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": contentType },
  });
}

function client(
  fetcher: typeof fetch,
  getToken = vi.fn(async (force: boolean) => (force ? "fresh-token" : "cached-token")),
) {
  return { http: createHttpClient({ baseUrl: async () => "http://api.test", getToken, fetcher }), getToken };
}

const headersOf = (fetcher: Mock<typeof fetch>, call = 0) =>
  fetcher.mock.calls[call][1]?.headers as Record<string, string>;

describe("http client", () => {
  it("sends the bearer token on every call", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => jsonResponse(200, { ok: true }));
    const { http } = client(fetcher);
    expect(await http.get("/api/v1/auth/account")).toEqual({ ok: true });
    expect(fetcher.mock.calls[0][0]).toBe("http://api.test/api/v1/auth/account");
    expect(headersOf(fetcher).Authorization).toBe("Bearer cached-token");
  });

  it("sends no Authorization header on anonymous calls such as health", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => jsonResponse(200, { status: "ok" }));
    const { http, getToken } = client(fetcher);
    await http.get("/api/v1/health", { anonymous: true });
    expect(headersOf(fetcher).Authorization).toBeUndefined();
    expect(getToken).not.toHaveBeenCalled();
  });

  it("forces one token refresh and replays once after a 401", async () => {
    const fetcher = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(jsonResponse(401, { statusCode: 401, message: "Unauthorized" }))
      .mockResolvedValueOnce(jsonResponse(200, { ok: 1 }));
    const { http, getToken } = client(fetcher);
    expect(await http.get("/api/v1/x")).toEqual({ ok: 1 });
    expect(getToken.mock.calls).toEqual([[false], [true]]);
    expect(headersOf(fetcher, 1).Authorization).toBe("Bearer fresh-token");
  });

  it("surfaces a 401 that survives the refresh, without a third try", async () => {
    const fetcher = vi.fn<typeof fetch>(async () =>
      jsonResponse(401, { statusCode: 401, message: "Unauthorized", description: "This account is disabled" }),
    );
    const { http } = client(fetcher);
    await expect(http.get("/api/v1/x")).rejects.toMatchObject({
      statusCode: 401,
      message: "Unauthorized",
      description: "This account is disabled",
    });
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it("does not refresh on a 403", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => jsonResponse(403, { statusCode: 403, message: "Forbidden" }));
    const { http } = client(fetcher);
    await expect(http.get("/api/v1/status")).rejects.toMatchObject({ statusCode: 403 });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it("carries the server's message, description and data, and maps field issues to form errors", async () => {
    const data = [{ path: "displayName", message: "Display name cannot be empty" }];
    const fetcher = vi.fn<typeof fetch>(async () =>
      jsonResponse(400, { statusCode: 400, message: "Invalid body", description: "displayName: …", data }),
    );
    const { http } = client(fetcher);
    await expect(http.patch("/api/v1/auth/account/u", { displayName: "" })).rejects.toMatchObject({
      statusCode: 400,
      message: "Invalid body",
      description: "displayName: …",
      data,
      errors: { displayName: "Display name cannot be empty" },
    });
    const init = fetcher.mock.calls[0][1]!;
    expect(init.method).toBe("PATCH");
    expect(init.body).toBe('{"displayName":""}');
    expect(headersOf(fetcher)["Content-Type"]).toBe("application/json");
  });

  it("says 'Request failed with status code N' when an error has no JSON body", async () => {
    const fetcher = vi.fn<typeof fetch>(
      async () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    const { http } = client(fetcher);
    await expect(http.get("/api/v1/x")).rejects.toMatchObject({
      statusCode: 502,
      message: "Request failed with status code 502",
    });
  });

  it("refuses a 200 that is not JSON with a clear error", async () => {
    const fetcher = vi.fn<typeof fetch>(
      async () => new Response("<!doctype html>", { status: 200, headers: { "content-type": "text/html" } }),
    );
    const { http } = client(fetcher);
    await expect(http.get("/api/v1/x")).rejects.toMatchObject({
      message: "Unexpected response from the server",
      description: "GET /api/v1/x answered text/html instead of JSON",
    });
  });

  it("refuses malformed JSON and bodies of the wrong shape", async () => {
    const { http } = client(vi.fn<typeof fetch>(async () => jsonResponse(200, "{broken")));
    await expect(http.get("/api/v1/x")).rejects.toMatchObject({ description: "GET /api/v1/x answered malformed JSON" });
    const shaped = client(vi.fn<typeof fetch>(async () => jsonResponse(200, { items: [] }))).http;
    await expect(
      shaped.get("/api/v1/x", {
        expect: (body) => (Array.isArray((body as { data?: unknown }).data) ? null : "expected { data: [...] }"),
      }),
    ).rejects.toMatchObject({
      description: "GET /api/v1/x: expected { data: [...] }",
    });
  });

  it("tells a network error, a time-out, an abort and an unsupported protocol apart", async () => {
    const network = client(vi.fn<typeof fetch>(async () => Promise.reject(new TypeError("fetch failed")))).http;
    await expect(network.get("/api/v1/x")).rejects.toMatchObject({ statusCode: 0, message: "Network error" });

    const hanging = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        ),
    );
    const slow = client(hanging as unknown as typeof fetch).http;
    await expect(slow.get("/api/v1/x", { timeoutMs: 20 })).rejects.toMatchObject({
      statusCode: 408,
      message: "Request timed out after 20 ms",
    });

    const controller = new AbortController();
    const pending = client(hanging as unknown as typeof fetch).http.get("/api/v1/x", { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ statusCode: 0, message: "Request aborted" });

    const ftp = createHttpClient({
      baseUrl: async () => "ftp://files.test",
      getToken: async () => null,
      fetcher: vi.fn<typeof fetch>(),
    });
    await expect(ftp.get("/x")).rejects.toMatchObject({ message: "Unsupported protocol: ftp:" });
  });

  it("sends FormData as is, without a JSON content type", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => jsonResponse(201, { id: "1" }));
    const { http } = client(fetcher);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([1, 2, 3])]), "stock.bin");
    await http.post("/api/v1/data-logs", form);
    expect(fetcher.mock.calls[0][1]!.body).toBe(form);
    expect(headersOf(fetcher)["Content-Type"]).toBeUndefined();
  });
});
