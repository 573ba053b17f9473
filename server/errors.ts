import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { ApiError, FieldIssue } from "../contracts/errors";
import { TuneError } from "../domain/tune";
import { isConnectionLoss } from "./db/connection-loss";
import { TransactionTimeoutError } from "./db/transaction-guard";
import { Refusal, type RefusalKind, StorageUnavailable } from "./services/errors";

/** Seconds a client is asked to wait after a 503 before trying again. */
export const RETRY_AFTER_SECONDS = 5;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly description?: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, description?: string, data?: unknown) =>
  new HttpError(400, message, description, data);
export const unauthorized = (description?: string) => new HttpError(401, "Unauthorized", description);
export const forbidden = (description?: string) => new HttpError(403, "Forbidden", description);
export const notFound = (what: string) => new HttpError(404, "Not found", `${what} does not exist`);
export const conflict = (message: string, data?: unknown) => new HttpError(409, "Conflict", message, data);

/** Raised by our zod validator compiler; carries the failing fields for the 400 body. */
export class RequestValidationError extends Error {
  constructor(
    readonly part: string,
    readonly issues: FieldIssue[],
  ) {
    super(issues.map((issue) => `${issue.path || part}: ${issue.message}`).join("; "));
  }
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...path, key].join("."), message: `Unknown field "${key}"` }));
    }
    return [{ path: path.join("."), message: issue.message }];
  });
}

const STATUS_MESSAGES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  406: "Not acceptable",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable entity",
  429: "Too many requests",
};

/** Refusals of the domain by kind: a patch clash is a conflict with the image, the rest is input the client can fix. */
const TUNE_STATUS: Record<TuneError["code"], number> = {
  out_of_bounds: 400,
  invalid_value: 400,
  round_trip: 400,
  xdf_invalid: 400,
  definition_invalid: 400,
  patch_overlap: 400,
  patch_conflict: 409,
  patch_firmware: 422,
  image_mismatch: 422,
  checksum_invalid: 422,
  checksum_unstable: 422,
};

const TUNE_TITLES: Record<TuneError["code"], string> = {
  out_of_bounds: "Out of bounds",
  invalid_value: "Invalid value",
  round_trip: "Value does not round-trip",
  xdf_invalid: "Invalid XDF",
  definition_invalid: "Invalid definition",
  patch_overlap: "Patches overlap",
  patch_conflict: "Patch conflict",
  patch_firmware: "Patch is for another firmware",
  image_mismatch: "Wrong image",
  checksum_invalid: "Checksum does not verify",
  checksum_unstable: "Checksums do not settle",
};

/** The one place a service's refusal gets its status. */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  unavailable: 503,
};

function toApiError(error: FastifyError | Error, request: FastifyRequest): ApiError {
  // A refusal the client reads as "try again", but an outage the operators must see.
  if (error instanceof StorageUnavailable) request.log.error({ err: error.cause }, "file storage unavailable");
  if (error instanceof Refusal) {
    return {
      statusCode: REFUSAL_STATUS[error.kind],
      message: error.title,
      description: error.message || undefined,
      data: error.data,
    };
  }
  if (error instanceof TuneError) {
    return {
      statusCode: TUNE_STATUS[error.code],
      message: TUNE_TITLES[error.code],
      description: error.message,
      data: { code: error.code, ...error.details },
    };
  }
  if (error instanceof HttpError) {
    return { statusCode: error.statusCode, message: error.message, description: error.description, data: error.data };
  }
  if (error instanceof RequestValidationError) {
    return { statusCode: 400, message: `Invalid ${error.part}`, description: error.message, data: error.issues };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === "FST_ERR_HANDLER_TIMEOUT" || error instanceof TransactionTimeoutError) {
    request.log.warn({ err: error }, "request timed out");
    return {
      statusCode: 503,
      message: "Service unavailable",
      description:
        "The request took longer than the server allows and was stopped; nothing it started was kept. Try again.",
    };
  }
  if (isConnectionLoss(error)) {
    request.log.error({ err: error }, "database unavailable");
    return {
      statusCode: 503,
      message: "Service unavailable",
      description: "The database cannot be reached just now. Try again in a few seconds.",
    };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, oversize body, wrong content type) have safe messages.
    const description = status === 413 ? `The request body is larger than this endpoint accepts` : fastifyError.message;
    return { statusCode: status, message: STATUS_MESSAGES[status] ?? "Request error", description };
  }
  request.log.error({ err: error }, "request failed");
  return {
    statusCode: 500,
    message: "Internal server error",
    description: "Something went wrong on our side. It has been logged.",
  };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply: FastifyReply) => {
    const body = toApiError(error as FastifyError, request);
    if (body.statusCode === 503) reply.header("Retry-After", String(RETRY_AFTER_SECONDS));
    reply.status(body.statusCode).type("application/json").send(body);
  });
}
