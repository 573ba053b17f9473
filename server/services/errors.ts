/**
 * The services' refusals, in the domain's words and without HTTP: each says what kind of refusal
 * it is (the caller's input, something missing, not allowed, a clash with the current state, a
 * rule of the car, an outside service silent), a short title and the sentence the client reads.
 * server/errors.ts maps each kind to its status once.
 */
export type RefusalKind =
  | "invalid"
  | "not_found"
  | "forbidden"
  | "conflict"
  | "too_large"
  | "unsupported_media"
  | "unprocessable"
  | "unavailable";

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly title: string,
    message = "",
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The caller's input is wrong; `title` names what (for instance "Invalid body"), `data` the fields. */
export const invalid = (title: string, message?: string, data?: unknown) =>
  new Refusal("invalid", title, message, data);

/** Fields of a request part that break the service's rules, in the shape the request validator gives. */
export const invalidFields = (part: string, issues: Array<{ path: string; message: string }>) =>
  new Refusal(
    "invalid",
    `Invalid ${part}`,
    issues.map((issue) => `${issue.path || part}: ${issue.message}`).join("; "),
    issues,
  );

/** The caller may not do this (to this record). */
export const forbidden = (message?: string) => new Refusal("forbidden", "Forbidden", message);

/** The record's current state rules the change out; `data` may name the field it concerns. */
export const conflict = (message: string, data?: unknown) => new Refusal("conflict", "Conflict", message, data);

/** Whether a failed statement broke the unique constraint or index named (PostgreSQL's 23505). */
export function breaksUnique(error: unknown, constraint: string): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string; constraint?: string };
  return cause.code === "23505" && cause.constraint === constraint;
}

/** Something the caller named does not exist (or is not theirs to see). */
export class NotFoundRefusal extends Refusal {
  constructor(what: string) {
    super("not_found", "Not found", `${what} does not exist`);
  }
}

export const notFound = (what: string) => new NotFoundRefusal(what);

/** The order cannot be made or changed in its current state; `path` is the request field it concerns. */
export class OrderConflict extends Refusal {
  constructor(message: string, path = "tuneFileId") {
    super("conflict", "Conflict", message, [{ path, message }]);
  }
}

/** The car's firmware rules the purchase out (unknown yet, or another firmware than the tune's). */
export class FirmwareRefusal extends Refusal {
  constructor(title: "Unknown firmware" | "Wrong firmware", message: string, path: string, fieldMessage = message) {
    super("unprocessable", title, message, [{ path, message: fieldMessage }]);
  }
}

/** The payment provider did not answer; nothing was charged or changed. */
export class ProviderUnavailable extends Refusal {
  constructor(message: string) {
    super("unavailable", "Payment provider unavailable", message);
  }
}

/** A concurrent request closed what this one found; asking again succeeds. */
export class RetryRefusal extends Refusal {
  constructor(message: string) {
    super("unavailable", "Try again", message);
  }
}

/**
 * The file storage could not be reached, or answered that it cannot serve now: nothing was stored
 * or read. `cause` keeps the underlying error for the log.
 */
export class StorageUnavailable extends Refusal {
  constructor(cause: unknown) {
    super(
      "unavailable",
      "Storage unavailable",
      "The file storage cannot be reached just now. Try again in a few seconds.",
    );
    this.cause = cause;
  }
}
