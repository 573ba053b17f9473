import type { FastifyReply } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { notFound } from "../../server/errors";
import { bytesAnswer } from "../../server/http/media";
import { withBufferedUpload } from "../../server/http/uploads";
import { responseSerializer } from "../../server/http/zod";
import { startTestApp, type TestApp } from "./support/harness";
import { multipart } from "./support/multipart";

const answerSchema = z.strictObject({ id: z.string(), count: z.number().int(), note: z.string().optional() });

describe("response schemas", () => {
  let test: TestApp;

  beforeAll(async () => {
    // The real app in test mode, with one more route whose answer depends on ?shape=.
    test = await startTestApp("pglite");
    test.app.get(
      "/api/v1/response-contract-probe",
      { schema: { response: { 200: answerSchema } } },
      async (request) => {
        const { shape } = request.query as { shape?: string };
        if (shape === "missing") throw notFound("Probe");
        if (shape === "wrong-type") return { id: "a", count: "3" };
        if (shape === "extra-key") return { id: "a", count: 3, secret: "leaked" };
        return { count: 3, note: undefined, id: "a" };
      },
    );
    // Bytes and uploads, declared (config.media) and not: what the OpenAPI document is written from.
    const bytes = (_request: unknown, reply: FastifyReply) =>
      reply.header("content-type", "application/octet-stream").send(Buffer.from([1, 2, 3]));
    test.app.get("/api/v1/media-probe/declared", { config: { media: bytesAnswer() } }, bytes);
    test.app.get("/api/v1/media-probe/undeclared", bytes);
    test.app.post("/api/v1/media-probe/upload", async (request) =>
      withBufferedUpload(request, test.app.ctx, async () => ({ read: true })),
    );
  });
  afterAll(() => test?.close());

  const probe = (shape: string) =>
    test.app.inject({ method: "GET", url: `/api/v1/response-contract-probe?shape=${shape}` });

  it("fails with a 500 when a handler answers a shape its response schema does not allow", async () => {
    for (const shape of ["wrong-type", "extra-key"]) {
      const answer = await probe(shape);
      expect(answer.statusCode, shape).toBe(500);
      expect(answer.json(), shape).toMatchObject({ statusCode: 500, message: "Internal server error" });
      expect(answer.body, shape).not.toContain("leaked");
    }
  });

  it("sends a fitting answer as the handler wrote it, not as the schema would parse it", async () => {
    const answer = await probe("fits");
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(JSON.stringify({ count: 3, note: undefined, id: "a" }));
  });

  it("does not check an error answer against the 200 schema", async () => {
    const answer = await probe("missing");
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ statusCode: 404 });
  });

  it("fails with a 500 when a route answers bytes or reads multipart it does not declare", async () => {
    const get = (name: string) => test.app.inject({ method: "GET", url: `/api/v1/media-probe/${name}` });
    expect((await get("declared")).statusCode).toBe(200);
    const undeclared = await get("undeclared");
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.body).not.toContain("\u0001");
    const form = multipart([{ name: "file", filename: "a.bin", content: new Uint8Array([1]) }]);
    const upload = await test.app.inject({ method: "POST", url: "/api/v1/media-probe/upload", ...form });
    expect(upload.statusCode, upload.body).toBe(500);
  });

  it("only stringifies, without checking, when checks are off (production)", () => {
    const serialize = responseSerializer(answerSchema, false, { method: "GET", url: "/x", httpStatus: "200" });
    expect(serialize({ id: 1 })).toBe('{"id":1}');
    const checked = responseSerializer(answerSchema, true, { method: "GET", url: "/x", httpStatus: "200" });
    expect(() => checked({ id: 1 })).toThrow(/GET \/x answered 200 with a body its response schema refuses: id:/);
  });
});
