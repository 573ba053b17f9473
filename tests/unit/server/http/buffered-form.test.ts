import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../../server/errors";
import { BodyPool, boundaryOf, FormTooLargeError, parseForm, readBody } from "../../../../server/http/buffered-form";
import { multipart } from "../../../api/support/multipart";
import { thrownBy } from "../../support/thrown";

const limits = { fileBytes: 1024, fields: 3, fieldBytes: 64 };
const boundaryIn = (headers: Record<string, string>) => boundaryOf(headers["content-type"]);
const file = (size: number, fill = 0x41) => ({
  name: "file",
  filename: "image.bin",
  content: new Uint8Array(size).fill(fill),
});

const refusal = (run: () => unknown) => thrownBy(HttpError, run);

describe("parseForm", () => {
  it("reads the fields and the file as a view of the body, bytes unchanged and word-aligned", () => {
    const content = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
    const body = multipart([{ name: "file", filename: "stock.bin", content }], {
      patchIds: '["a","b"]',
      fixChecksums: "true",
    });
    const form = parseForm(body.payload, boundaryIn(body.headers), limits);
    expect(form.fields).toEqual({ patchIds: '["a","b"]', fixChecksums: "true" });
    expect(form.file).toMatchObject({ field: "file", filename: "stock.bin", mimetype: "application/octet-stream" });
    expect(Buffer.from(form.file!.bytes).equals(Buffer.from(content))).toBe(true);
    expect(form.file!.bytes.buffer).toBe(body.payload.buffer);
    expect(form.file!.bytes.byteOffset % 8).toBe(0);
  });

  it("keeps file content that looks like a boundary or ends in line breaks", () => {
    const body = multipart([file(4)]);
    const boundary = boundaryIn(body.headers);
    const content = Buffer.from(`\r\n--${boundary.slice(0, -1)}\r\n--${boundary}x\r\n\r\n`);
    const tricky = multipart([{ name: "file", filename: "a.bin", content }]);
    const form = parseForm(tricky.payload, boundaryIn(tricky.headers), limits);
    expect(Buffer.from(form.file!.bytes).toString()).toBe(content.toString());
  });

  it("takes the limit exactly and refuses one byte more as too large", () => {
    const exact = multipart([file(limits.fileBytes)]);
    expect(parseForm(exact.payload, boundaryIn(exact.headers), limits).file!.bytes.length).toBe(limits.fileBytes);
    const over = multipart([file(limits.fileBytes + 1)]);
    expect(() => parseForm(over.payload, boundaryIn(over.headers), limits)).toThrow(FormTooLargeError);
  });

  it("refuses a second file, too many fields and a field over its length", () => {
    const two = multipart([file(4), { ...file(4), filename: "b.bin" }]);
    expect(refusal(() => parseForm(two.payload, boundaryIn(two.headers), limits)).description).toBe(
      "Send exactly one file per upload",
    );
    const many = multipart([], { a: "1", b: "2", c: "3", d: "4" });
    expect(refusal(() => parseForm(many.payload, boundaryIn(many.headers), limits)).description).toBe(
      "The form has more than 3 fields",
    );
    const long = multipart([], { patchIds: "x".repeat(65) });
    expect(refusal(() => parseForm(long.payload, boundaryIn(long.headers), limits)).description).toBe(
      'Field "patchIds" is too long',
    );
  });

  it("refuses a body cut short, one without its boundary and a part without a name, naming what is wrong", () => {
    const body = multipart([file(64)]);
    const boundary = boundaryIn(body.headers);
    const cut = refusal(() => parseForm(body.payload.subarray(0, body.payload.length - 20), boundary, limits));
    expect(cut).toMatchObject({ statusCode: 400, description: "the body ends before its closing boundary" });
    expect(refusal(() => parseForm(body.payload, "other-boundary", limits)).description).toBe(
      "the body has no part with the boundary its content type names",
    );
    const nameless = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; filename="a.bin"\r\n\r\nabc\r\n--${boundary}--\r\n`,
    );
    expect(refusal(() => parseForm(nameless, boundary, limits)).description).toBe(
      "a part's Content-Disposition has no name",
    );
    const noDisposition = Buffer.from(`--${boundary}\r\nContent-Type: text/plain\r\n\r\nabc\r\n--${boundary}--\r\n`);
    expect(refusal(() => parseForm(noDisposition, boundary, limits)).description).toBe(
      "a part has no Content-Disposition: form-data header",
    );
  });

  it("reads quoted names with escapes, a preamble and a quoted boundary", () => {
    const boundary = "with space";
    const body = Buffer.from(
      `preamble text\r\n--${boundary}\r\nContent-Disposition: form-data; name="a\\"b"; filename="my \\"tune\\".bin"\r\nContent-Type: application/x-binary\r\n\r\nxyz\r\n--${boundary}--\r\nepilogue`,
    );
    expect(boundaryOf(`multipart/form-data; boundary="${boundary}"`)).toBe(boundary);
    const form = parseForm(body, boundary, limits);
    expect(form.file).toMatchObject({ field: 'a"b', filename: 'my "tune".bin', mimetype: "application/x-binary" });
    expect(Buffer.from(form.file!.bytes).toString()).toBe("xyz");
  });

  it("refuses a content type without a boundary, or with one longer than RFC 2046's 70 characters", () => {
    expect(refusal(() => boundaryOf("multipart/form-data")).description).toBe("the content type names no boundary");
    expect(refusal(() => boundaryOf("multipart/form-data; boundary=")).description).toBe(
      "the content type names no boundary",
    );
    expect(boundaryOf(`multipart/form-data; boundary=${"b".repeat(70)}; charset=utf-8`)).toBe("b".repeat(70));
    expect(refusal(() => boundaryOf(`multipart/form-data; boundary=${"b".repeat(71)}`)).description).toBe(
      "the boundary has 71 characters; RFC 2046 allows at most 70",
    );
    expect(refusal(() => boundaryOf(`multipart/form-data; boundary="${"b".repeat(200)}"`)).description).toBe(
      "the boundary has 200 characters; RFC 2046 allows at most 70",
    );
  });
});

describe("readBody", () => {
  const request = (chunks: Buffer[], contentLength?: number) => {
    const stream = new PassThrough() as PassThrough & { headers: Record<string, string> };
    stream.headers = contentLength === undefined ? {} : { "content-length": String(contentLength) };
    queueMicrotask(() => {
      for (const chunk of chunks) stream.write(chunk);
      stream.end();
    });
    return stream as unknown as IncomingMessage;
  };

  it("joins the chunks into one buffer, with or without a Content-Length", async () => {
    const chunks = [Buffer.from("abc"), Buffer.alloc(70_000, 1), Buffer.from("xyz")];
    const whole = Buffer.concat(chunks);
    expect((await readBody(request(chunks, whole.length), 1 << 20)).equals(whole)).toBe(true);
    expect((await readBody(request(chunks), 1 << 20)).equals(whole)).toBe(true);
  });

  it("refuses more than the most a form may be, declared or streamed", async () => {
    await expect(readBody(request([Buffer.alloc(10)], 101), 100)).rejects.toBeInstanceOf(FormTooLargeError);
    await expect(readBody(request([Buffer.alloc(60), Buffer.alloc(60)]), 100)).rejects.toBeInstanceOf(
      FormTooLargeError,
    );
  });

  it("refuses a body that differs from its Content-Length", async () => {
    await expect(readBody(request([Buffer.alloc(10)], 20), 100)).rejects.toMatchObject({
      statusCode: 400,
      description: "the body ended after 10 of its 20 bytes",
    });
    await expect(readBody(request([Buffer.alloc(30)], 20), 100)).rejects.toMatchObject({
      description: "the body is longer than its Content-Length of 20 bytes",
    });
  });
});

describe("BodyPool", () => {
  const MiB = 1024 * 1024;

  it("hands a given-back body to the next one of its MiB, and none of another", () => {
    const pool = new BodyPool(32 * MiB);
    const first = pool.take(8 * MiB + 300);
    expect(first.length).toBe(8 * MiB + 300);
    pool.give(first.subarray(0, 10));
    const second = pool.take(8 * MiB + 10);
    expect(second.buffer).toBe(first.buffer);
    expect(pool.take(8 * MiB + 10).buffer).not.toBe(first.buffer);
    pool.give(second);
    expect(pool.take(2 * MiB).buffer).not.toBe(first.buffer);
  });

  it("keeps no more idle bytes than allowed, and nothing under a MiB", () => {
    const pool = new BodyPool(16 * MiB);
    const bodies = [pool.take(8 * MiB), pool.take(8 * MiB), pool.take(8 * MiB)];
    for (const body of bodies) pool.give(body);
    const again = [pool.take(8 * MiB), pool.take(8 * MiB), pool.take(8 * MiB)];
    expect(again.filter((body) => bodies.some((old) => old.buffer === body.buffer))).toHaveLength(2);
    const small = pool.take(1000);
    pool.give(small);
    expect(pool.take(1000).buffer).not.toBe(small.buffer);
  });
});
