/**
 * The published API contract: GET /api/v1/openapi.json answers signed out with an OpenAPI 3
 * document naming every route the server registered under /api (read back from the server, so a
 * new route is checked the day it is added), its parameters and bodies as JSON Schema, the one
 * error shape for refusals, and the reference page that reads it is served with its own assets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredRoutes } from "../../server/http/zod";
import { apiDatabases, startTestApp, type TestApp } from "./support/harness";

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

/** Fastify's `/tune-files/:id` as OpenAPI's `/tune-files/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

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
