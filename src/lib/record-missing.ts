/**
 * A page whose address names a record (`/my-devices/:id`, a drawer's `…/show/:id`) shows the spec's
 * 404 "Page Not Found" when the id names nothing: a malformed id fails the route's validation
 * (src/lib/route-params.ts), an unknown one comes back from the API as 404. This says which
 * failures of a record's fetch mean "no such record".
 */
import type { ApiError } from "../../contracts/errors";

/** The error page of an address that names nothing (spec: "A failed page validation gives 404 'Page Not Found'"). */
export const PAGE_NOT_FOUND: ApiError = {
  statusCode: 404,
  message: "Page Not Found",
  description: "This address does not name anything that exists, or nothing you may see.",
};

/** True when a record's fetch failed because the API has no such record for the caller (404). */
export function isRecordMissing(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "statusCode" in error &&
    (error as { statusCode: unknown }).statusCode === 404
  );
}

/** True for the API's 4xx answers: asking again gives the same answer, so queries do not retry them. */
export function isClientError(error: unknown): boolean {
  const status =
    typeof error === "object" && error !== null && "statusCode" in error
      ? (error as { statusCode: unknown }).statusCode
      : undefined;
  return typeof status === "number" && status >= 400 && status < 500;
}
