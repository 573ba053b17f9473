/**
 * The published API contract: GET /api/v1/openapi.json answers signed out with an OpenAPI 3
 * document naming every route the server registered under /api (read back from the server, so a
 * new route is checked the day it is added), its parameters and bodies as JSON Schema, the one
 * error shape for refusals, and the reference page that reads it is served with its own assets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredRoutes } from "../../server/http/zod";
import { uploadFixtureLog } from "./support/data-log-uploads";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp } from "./support/harness";

interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

/** Fastify's `/tune-files/:id` as OpenAPI's `/tune-files/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

const mediaType = (header: unknown) => String(header).split(";")[0].trim();

describe.each(apiDatabases)("the OpenAPI document on %s", (kind) => {
  let test: TestApp;
  let document: Document;

  beforeAll(async () => {
    test = await startTestApp(kind);
    const answer = await test.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(answer.statusCode, answer.body).toBe(200);
    document = answer.json();
  });
  afterAll(async () => test?.close());

  it("is an OpenAPI 3 document anyone may read, with the server's version", () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe(test.app.ctx.config.version);
  });

  it("names every route the server registered under /api, with each of its methods", () => {
    const registered = declaredRoutes(test.app).filter(
      (route) =>
        route.url.startsWith("/api/") &&
        route.method !== "HEAD" &&
        !route.url.startsWith("/api/reference") &&
        route.url !== "/api/v1/openapi.json",
    );
    // A server with fewer routes than the spec's screens use would mean the routes were not read back.
    expect(registered.length).toBeGreaterThan(150);
    const missing = registered
      .filter((route) => !document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
  });

  it("states a route's parameters, body and answer, and that refusals have the error shape", () => {
    const item = document.paths["/api/v1/tuning-requests/{id}"]?.patch;
    expect(item?.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path", required: true }));
    const body = item?.requestBody?.content["application/json"]?.schema;
    expect(body).toBeDefined();
    const errorShape = item?.responses["4XX"]?.content?.["application/json"]?.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(errorShape.properties)).toEqual(["statusCode", "message", "description", "data"]);
    expect(errorShape.required).toEqual(["statusCode", "message"]);
    const list = document.paths["/api/v1/tune-files"]?.get;
    expect(list?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(["page", "pageSize"]));
    expect(list?.responses["200"]?.content?.["application/json"]?.schema).toMatchObject({ type: "object" });
  });

  it("describes an upload as multipart with its file as binary, and the log read back as the bytes it declares", async () => {
    const upload = document.paths["/api/v1/data-logs"]?.post?.requestBody?.content["multipart/form-data"]?.schema;
    expect(upload?.properties?.file).toMatchObject({ type: "string", format: "binary" });
    expect(upload?.required).toContain("file");
    const [owner] = await createUsers(test, ["customer"]);
    // A real upload through the route the document describes, then its download, whole and in part.
    const log = await uploadFixtureLog(test, owner, "logs/ecumaster.csv");
    const blob = document.paths["/api/v1/data-logs/{id}/blob"]?.get;
    const whole = await test.app.inject({
      method: "GET",
      url: `/api/v1/data-logs/${log.id}/blob`,
      headers: bearer(owner.token),
    });
    expect(whole.statusCode).toBe(200);
    expect(Object.keys(blob?.responses["200"]?.content ?? {})).toContain(mediaType(whole.headers["content-type"]));
    expect(blob?.responses["200"]?.headers).toHaveProperty("Content-Disposition");
    const part = await test.app.inject({
      method: "GET",
      url: `/api/v1/data-logs/${log.id}/blob`,
      headers: { ...bearer(owner.token), range: "bytes=0-9" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toMatch(/^bytes 0-9\//);
    expect(Object.keys(blob?.responses["206"]?.content ?? {})).toContain(mediaType(part.headers["content-type"]));
    expect(blob?.responses["206"]?.headers).toHaveProperty("Content-Range");
  });

  it("describes every declared upload as multipart with binary file parts, and every byte answer by its media type", () => {
    const routes = declaredRoutes(test.app).filter(
      (route) => route.media && route.method !== "HEAD" && route.url.startsWith("/api/"),
    );
    // Uploads of tune files, logs, definitions, documents and pictures; downloads, images, CSV and streams.
    expect(routes.length).toBeGreaterThan(30);
    const wrong = routes.flatMap(({ method, url, media }) => {
      const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
      const problems: string[] = [];
      const form = operation?.requestBody?.content["multipart/form-data"]?.schema;
      for (const file of Object.keys(media?.upload?.files ?? {}))
        if (form?.properties?.[file]?.format !== "binary") problems.push(`file part ${file} not binary`);
      for (const type of media?.bytes?.types ?? [])
        if (!operation?.responses["200"]?.content?.[type]) problems.push(`200 without ${type}`);
      if (media?.bytes?.ranges && !operation?.responses["206"]?.headers?.["Content-Range"])
        problems.push("206 without Content-Range");
      if (media?.eventStream && !operation?.responses["200"]?.content?.["text/event-stream"])
        problems.push("200 without text/event-stream");
      return problems.map((problem) => `${method} ${url}: ${problem}`);
    });
    expect(wrong).toEqual([]);
  });

  it("asks a token of every route but the public ones", () => {
    expect(document.paths["/api/v1/health"]?.get?.security).toEqual([]);
    expect(document.paths["/api/v1/tune-files/{id}"]?.get?.security).toBeUndefined();
  });

  it("serves the reference page with its own scripts, from no other site", async () => {
    const page = await test.app.inject({ method: "GET", url: "/api/reference/" });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']+\.js/);
    const script = page.body.match(/src="\.\/(static\/[^"]+\.js)"/)?.[1];
    expect(script, "a script of the page's own").toBeDefined();
    expect((await test.app.inject({ method: "GET", url: `/api/reference/${script}` })).statusCode).toBe(200);
  });
});
