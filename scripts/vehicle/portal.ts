/** The portal as the phone app talks to it over HTTP: signed in with the Auth emulator, JSON, download and multipart calls under /api/v1. */
import { emulatorSignIn } from "../../server/seed/virtual-car/emulator-sign-in";
import type { PortalClient } from "../../server/seed/virtual-car/phone-app";

export interface PortalOptions {
  url: string;
  emulatorHost: string;
  email: string;
  password: string;
}

export class Portal implements PortalClient {
  private token = "";
  constructor(private readonly options: PortalOptions) {}

  async signIn(): Promise<void> {
    this.token = await emulatorSignIn(this.options.emulatorHost, this.options.email, this.options.password);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.options.url}/api/v1/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      const error = text ? (JSON.parse(text) as { message?: string; description?: string }) : {};
      throw new Error(
        `${method} ${path}: ${response.status} ${error.message ?? ""}${error.description ? ` — ${error.description}` : ""}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async download(path: string, headers: Record<string, string> = {}): Promise<Uint8Array> {
    const response = await fetch(`${this.options.url}/api/v1/${path}`, {
      headers: { authorization: `Bearer ${this.token}`, ...headers },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  async upload<T>(path: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}): Promise<T> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set("file", new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${this.options.url}/api/v1/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }
}
