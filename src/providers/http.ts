import type { HttpError } from "@refinedev/core";

/** Refine's HttpError carrying the server's error shape. */
export interface ApiHttpError extends HttpError {
  description?: string;
  data?: unknown;
}

export interface HttpClientOptions {
  /** Resolves the API origin once (backend choice). */
  baseUrl: () => Promise<string>;
  /** The signed-in user's ID token; forceRefresh asks the identity service for a new one. */
  getToken: (forceRefresh: boolean) => Promise<string | null>;
  fetcher?: typeof fetch;
  /** Default per-request time-out. */
  timeoutMs?: number;
}

export interface RequestOptions {
  query?: URLSearchParams | Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Reports upload progress (0..1) for FormData bodies. */
  onUploadProgress?: (fraction: number) => void;
  /** Checks the parsed body; return a message when it is not the expected shape. */
  expect?: (body: unknown) => string | null;
  /** Skip the Authorization header (health). */
  anonymous?: boolean;
  /** Answer the raw Blob instead of parsing JSON (downloads). */
  responseType?: "json" | "blob";
}

export function httpError(statusCode: number, message: string, description?: string, data?: unknown): ApiHttpError {
  const error = Object.assign(new Error(message), { statusCode }) as ApiHttpError;
  error.message = message;
  if (description !== undefined) error.description = description;
  if (data !== undefined) error.data = data;
  // Refine puts `errors` on the matching form fields; our 400s list them as { path, message }.
  if (Array.isArray(data)) {
    const fields = data.filter(
      (issue): issue is { path: string; message: string } =>
        typeof issue?.path === "string" && issue.path !== "" && typeof issue?.message === "string",
    );
    if (fields.length > 0) error.errors = Object.fromEntries(fields.map((issue) => [issue.path, issue.message]));
  }
  return error;
}

function buildUrl(base: string, path: string, query?: RequestOptions["query"]): string {
  const url = `${base}${path}`;
  if (!query) return url;
  const params =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query)
            .filter(([, value]) => value !== undefined)
            .map(([key, value]) => [key, String(value)]),
        );
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

interface RawResponse {
  status: number;
  contentType: string;
  text: () => Promise<string>;
  blob: () => Promise<Blob>;
}

async function errorFromResponse(response: RawResponse): Promise<ApiHttpError> {
  let body: unknown = null;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const shaped = body as { message?: unknown; description?: unknown; data?: unknown } | null;
  if (shaped && typeof shaped.message === "string") {
    return httpError(
      response.status,
      shaped.message,
      typeof shaped.description === "string" ? shaped.description : undefined,
      shaped.data,
    );
  }
  return httpError(response.status, `Request failed with status code ${response.status}`);
}

function uploadWithProgress(
  url: string,
  init: { method: string; headers: Record<string, string>; body: FormData; signal: AbortSignal },
  onProgress: (fraction: number) => void,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, url);
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        contentType: xhr.getResponseHeader("content-type") ?? "",
        text: async () => xhr.responseText,
        blob: async () => new Blob([xhr.response]),
      });
    xhr.onerror = () => reject(new TypeError("Network error"));
    const abort = () => xhr.abort();
    xhr.onabort = () => reject(init.signal.reason ?? new DOMException("Aborted", "AbortError"));
    init.signal.addEventListener("abort", abort, { once: true });
    xhr.send(init.body);
  });
}

/**
 * The one client for every API call: bearer token on all but anonymous calls, one forced token
 * refresh and replay on a 401, plain distinct errors, and a clear error for bodies of the wrong shape.
 */
export function createHttpClient(options: HttpClientOptions) {
  const fetcher = options.fetcher ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function send(
    method: string,
    path: string,
    request: RequestOptions,
    forceRefresh: boolean,
  ): Promise<RawResponse> {
    const base = await options.baseUrl();
    const url = buildUrl(base, path, request.query);
    const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
    if (protocol && protocol !== "http" && protocol !== "https") {
      throw httpError(0, `Unsupported protocol: ${protocol}:`, `Only http and https URLs can be requested (${url})`);
    }
    const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
    if (!request.anonymous) {
      const token = await options.getToken(forceRefresh);
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    const isForm = typeof FormData !== "undefined" && request.body instanceof FormData;
    let body: BodyInit | undefined;
    if (isForm) body = request.body as FormData;
    else if (request.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(request.body);
    }

    const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? 60_000;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException("Timed out", "TimeoutError")), timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
    try {
      // A request cancelled before it started must not reach the network.
      signal.throwIfAborted();
      if (isForm && request.onUploadProgress && typeof XMLHttpRequest !== "undefined") {
        return await uploadWithProgress(
          url,
          { method, headers, body: body as FormData, signal },
          request.onUploadProgress,
        );
      }
      const response = await fetcher(url, { method, headers, body, signal });
      return {
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        text: () => response.text(),
        blob: () => response.blob(),
      };
    } catch {
      if (request.signal?.aborted) throw httpError(0, "Request aborted", `${method} ${path} was cancelled`);
      if (timeout.signal.aborted) {
        const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
        throw httpError(408, `Request timed out after ${limit}`, `${method} ${path} took too long`);
      }
      throw httpError(
        0,
        "Network error",
        `Could not reach the server for ${method} ${path}. Check your connection and retry.`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<T>(method: string, path: string, request: RequestOptions = {}): Promise<T> {
    let response = await send(method, path, request, false);
    if (response.status === 401 && !request.anonymous) response = await send(method, path, request, true);
    if (response.status >= 400) throw await errorFromResponse(response);
    if (request.responseType === "blob") return (await response.blob()) as T;
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    if (!response.contentType.includes("json")) {
      throw httpError(
        502,
        "Unexpected response from the server",
        `${method} ${path} answered ${response.contentType || "no content type"} instead of JSON`,
      );
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw httpError(502, "Unexpected response from the server", `${method} ${path} answered malformed JSON`);
    }
    const problem = request.expect?.(body);
    if (problem) throw httpError(502, "Unexpected response from the server", `${method} ${path}: ${problem}`);
    return body as T;
  }

  return {
    request,
    get: <T>(path: string, options?: RequestOptions) => request<T>("GET", path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>("POST", path, { ...options, body }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>("PUT", path, { ...options, body }),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>("PATCH", path, { ...options, body }),
    delete: <T>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
