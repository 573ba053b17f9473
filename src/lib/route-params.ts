/**
 * Checks for ids in page URLs: a failed page validation gives 404 "Page Not Found".
 * A route declares `validate(params)` with these; a malformed id then shows the 404 at once
 * instead of a page that asks the API for something that cannot exist.
 */

/**
 * Identity-service uids: 1 to 128 characters (the identity service's own limit). Whitespace and
 * control characters never occur in the uids it issues, and in a URL they mean a mangled link.
 */
export function isUid(value: string | undefined): boolean {
  return value !== undefined && value.length >= 1 && value.length <= 128 && !/[\s\p{Cc}]/u.test(value);
}

/** Our own records are keyed by UUIDs (the database's `uuid` type). */
export function isUuid(value: string | undefined): boolean {
  return value !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
