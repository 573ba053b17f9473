/**
 * Requests as a test user, for API suites: JSON calls and one-file uploads
 * (multipart field `file`), and the body of a firmware record made from a
 * generated demo, the starting point of every tune-file suite.
 */
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Demo } from "../../../server/seed/generator";
import { bearer, type TestUser } from "./harness";
import { multipart } from "./multipart";

type Method = "GET" | "PUT" | "POST" | "PATCH" | "DELETE";

/** `app` is read at each request: suites build their app in beforeAll. */
export function requestsTo(app: () => FastifyInstance) {
  const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
    app().inject({
      method,
      url: `/api/v1${url}`,
      headers: user ? bearer(user.token) : {},
      ...(payload !== undefined && { payload: payload as object }),
    });
  const upload = (
    url: string,
    user: TestUser,
    content: Uint8Array,
    fields: Record<string, string> = {},
    filename = "image.bin",
  ) => {
    const body = multipart([{ name: "file", filename, content }], fields);
    return app().inject({
      method: "POST",
      url: `/api/v1${url}`,
      headers: { ...bearer(user.token), ...body.headers },
      payload: body.payload,
    });
  };
  /** The demo's firmware record, created by an admin, with its stock file unless told otherwise; answers the record's id. */
  const storeFirmware = async (
    admin: TestUser,
    demo: Demo,
    options: { stock?: boolean; overrides?: Record<string, unknown> } = {},
  ): Promise<string> => {
    const record = await call(
      "PUT",
      "/firmware-support/firmware-support",
      admin,
      firmwareRecordOf(demo, options.overrides),
    );
    expect(record.statusCode, record.body).toBe(201);
    const id = record.json().id as string;
    if (options.stock !== false) {
      const stock = await upload(`/firmware-support/firmware-support/${id}/stock-file`, admin, demo.stock);
      expect(stock.statusCode, stock.body).toBe(200);
    }
    return id;
  };
  return { call, upload, storeFirmware };
}

export const firmwareRecordOf = (demo: Demo, overrides: Record<string, unknown> = {}) => ({
  firmwareId: demo.firmware.firmwareId,
  ecuFamily: "DEMO-ME7",
  manufacturer: "Bosch",
  imageSize: demo.firmware.imageSize,
  identify: demo.firmware.identify,
  checksums: demo.firmware.checksums,
  definition: demo.firmware.definition,
  ...overrides,
});
