/**
 * withBufferedUpload (an upload held in memory, never stored) on a bare
 * Fastify with @fastify/multipart as the app registers it: the answers the
 * former whole-body parser gave, limits included.
 */
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../../../server/context";
import { installErrorHandling } from "../../../../server/errors";
import { multipartBody } from "../../../../server/http/media";
import { boundaryOf, withBufferedUpload } from "../../../../server/http/uploads";
import { type FilePart, multipart } from "../../../api/support/multipart";

const LIMIT = 1024;
const file = (size: number, filename = "image.bin"): FilePart => ({
  name: "file",
  filename,
  content: Uint8Array.from({ length: size }, (_, i) => (i * 7) & 0xff),
});
const fieldsOf = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, "v"]));

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  installErrorHandling(app);
  await app.register(fastifyMultipart, { limits: { fileSize: LIMIT } });
  const ctx = { config: { uploadLimitBytes: LIMIT } } as AppContext;
  // Declared as every upload route declares it (config.media); an undeclared upload is refused.
  app.post("/upload", { config: { media: multipartBody({ file: "the file" }) } }, async (request) =>
    withBufferedUpload(request, ctx, async ({ file, fields }) => ({
      fields,
      file: file && { field: file.field, filename: file.filename, hex: Buffer.from(file.bytes).toString("hex") },
    })),
  );
});
afterAll(() => app.close());

const send = (body: { payload: Buffer | string; headers: Record<string, string> }) =>
  app.inject({ method: "POST", url: "/upload", ...body });
const raw = (payload: string, boundary = "bb") =>
  send({ payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });

describe("withBufferedUpload", () => {
  it("reads the fields, before or after the file, and the file's bytes unchanged", async () => {
    const part = file(300);
    const response = await send(multipart([part], { patchIds: '["a","b"]', fixChecksums: "true" }));
    expect(response.json()).toEqual({
      fields: { patchIds: '["a","b"]', fixChecksums: "true" },
      file: { field: "file", filename: "image.bin", hex: Buffer.from(part.content).toString("hex") },
    });
    const after = await raw(
      '--bb\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\nabc\r\n--bb\r\nContent-Disposition: form-data; name="patchIds"\r\n\r\n1,2\r\n--bb--\r\n',
    );
    expect(after.json()).toEqual({
      fields: { patchIds: "1,2" },
      file: { field: "file", filename: "a.bin", hex: "616263" },
    });
  });

  it("keeps file content that looks like a boundary, quoted names with escapes and a quoted boundary", async () => {
    const response = await raw(
      'preamble\r\n--with space\r\nContent-Disposition: form-data; name="a\\"b"; filename="my \\"tune\\".bin"\r\n\r\n\r\n--with spac\r\n--with-space\r\n\r\n\r\n--with space--\r\n',
      '"with space"',
    );
    expect(response.json().file).toEqual({
      field: 'a"b',
      filename: 'my "tune".bin',
      hex: Buffer.from("\r\n--with spac\r\n--with-space\r\n\r\n").toString("hex"),
    });
  });

  it("takes the limit exactly and refuses one byte more with the stored path's 413", async () => {
    expect((await send(multipart([file(LIMIT)]))).statusCode).toBe(200);
    const over = await send(multipart([file(LIMIT + 1)]));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      statusCode: 413,
      message: "Payload too large",
      description: `The file is larger than the ${LIMIT} bytes allowed`,
      data: { limitBytes: LIMIT },
    });
  });

  it("refuses a second file, more than 32 fields and a field over 64 KiB with 400s naming them", async () => {
    const two = await send(multipart([file(4), file(4, "b.bin")]));
    expect(two.json()).toEqual({
      statusCode: 400,
      message: "One file only",
      description: "Send exactly one file per upload",
    });
    expect((await send(multipart([file(4)], fieldsOf(32)))).statusCode).toBe(200);
    expect((await send(multipart([file(4)], fieldsOf(33)))).json()).toEqual({
      statusCode: 400,
      message: "Invalid form field",
      description: "The form has more than 32 fields",
    });
    expect((await send(multipart([file(4)], { patchIds: "x".repeat(64 * 1024) }))).statusCode).toBe(200);
    expect((await send(multipart([file(4)], { patchIds: "x".repeat(64 * 1024 + 1) }))).json()).toEqual({
      statusCode: 400,
      message: "Invalid form field",
      description: 'Field "patchIds" is too long',
    });
  });

  it("refuses a malformed body with a 400 naming what is wrong, never a 500", async () => {
    const body = multipart([file(64)]);
    const cases: Array<[Promise<{ json(): unknown }>, string]> = [
      [
        send({ ...body, payload: body.payload.subarray(0, body.payload.length - 20) }),
        "the body ends before its closing boundary",
      ],
      [send({ ...body, payload: "" }), "the body has no part with the boundary its content type names"],
      [
        send({ payload: body.payload, headers: { "content-type": "multipart/form-data; boundary=other" } }),
        "the body has no complete part with the boundary its content type names",
      ],
      [
        raw('--bb\r\nContent-Disposition: form-data; filename="a.bin"\r\n\r\nabc\r\n--bb--\r\n'),
        "a part's Content-Disposition has no name",
      ],
      [
        raw("--bb\r\nContent-Disposition: form-data\r\n\r\nabc\r\n--bb--\r\n"),
        "a part's Content-Disposition has no name",
      ],
      [
        send({ payload: body.payload, headers: { "content-type": `multipart/form-data; boundary=${"b".repeat(71)}` } }),
        "the boundary has 71 characters; RFC 2046 allows at most 70",
      ],
    ];
    for (const [answer, description] of cases)
      expect((await answer).json()).toEqual({ statusCode: 400, message: "Invalid multipart body", description });
  });

  it("refuses a body that is not multipart with 415", async () => {
    const response = await send({ payload: "{}", headers: { "content-type": "application/json" } });
    expect(response.statusCode).toBe(415);
  });
});

describe("boundaryOf", () => {
  it("reads a token or a quoted boundary of 1 to 70 characters", () => {
    expect(boundaryOf(`multipart/form-data; boundary=${"b".repeat(70)}; charset=utf-8`)).toBe("b".repeat(70));
    expect(boundaryOf('multipart/form-data; boundary="with space"')).toBe("with space");
    expect(() => boundaryOf("multipart/form-data; boundary=")).toThrow(/Invalid multipart body/);
  });
});
