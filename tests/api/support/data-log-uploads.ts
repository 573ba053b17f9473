/** A data log uploaded as the app sends it, from a file of ../shared/fixtures. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { DataLogDetail } from "../../../contracts/data-logs";
import { bearer, type TestApp, type TestUser } from "./harness";
import { multipart } from "./multipart";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../shared/fixtures");

/** Uploads `fixture` (a path under the fixtures folder, "logs/…") as `user`'s log; the answer must be 201. */
export async function uploadFixtureLog(test: TestApp, user: TestUser, fixture: string): Promise<DataLogDetail> {
  const body = multipart([
    { name: "file", filename: path.basename(fixture), content: readFileSync(path.join(FIXTURES, fixture)) },
  ]);
  const response = await test.app.inject({
    method: "POST",
    url: "/api/v1/data-logs",
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as DataLogDetail;
}
