/**
 * The portal's API called in process (Fastify's inject) with a signed-in user's ID token: how
 * the demo seed drives the virtual car through the same routes, checks and sessions as the
 * phone app does over HTTP.
 */
import type { FastifyInstance } from "fastify";
import type { PortalClient } from "./phone-app";

export class InjectPortal implements PortalClient {
  constructor(
    private readonly app: FastifyInstance,
    private readonly idToken: string,
  ) {}

  private headers(extra: Record<string, string> = {}) {
    return { authorization: `Bearer ${this.idToken}`, ...extra };
  }

  private fail(method: string, path: string, response: { statusCode: number; body: string }): never {
    throw new Error(`${method} ${path}: ${response.statusCode} ${response.body}`);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.app.inject({
      method: method as "GET",
      url: `/api/v1/${path}`,
      headers: this.headers(),
      ...(body !== undefined && { payload: body as object }),
    });
    if (response.statusCode >= 400) this.fail(method, path, response);
    return (response.body ? response.json() : undefined) as T;
  }

  /** A multipart upload (`file` and the fields), encoded by the platform's FormData as a browser would. */
  async upload<T>(path: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}): Promise<T> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set("file", new Blob([new Uint8Array(bytes)]), name);
    const encoded = new Request("http://inject.local/", { method: "POST", body: form });
    const response = await this.app.inject({
      method: "POST",
      url: `/api/v1/${path}`,
      headers: this.headers({ "content-type": encoded.headers.get("content-type")! }),
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    if (response.statusCode >= 400) this.fail("POST", path, response);
    return response.json() as T;
  }

  async download(path: string, headers: Record<string, string> = {}): Promise<Uint8Array> {
    const response = await this.app.inject({ method: "GET", url: `/api/v1/${path}`, headers: this.headers(headers) });
    if (response.statusCode >= 400) this.fail("GET", path, response);
    return new Uint8Array(response.rawPayload);
  }
}
