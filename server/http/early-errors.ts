/**
 * Answers made before a request reaches a route, in our error shape `{ statusCode, message,
 * description }` and with the security headers of every other answer (security-headers.ts):
 *
 * - Fastify's router refusals (`frameworkErrors`): a path segment longer than `MAX_PARAM_LENGTH`
 *   (414), a path that is not valid URL encoding (400). By default Fastify writes
 *   `{"error":…}` with no headers of ours.
 * - Node's HTTP parser refusals (`clientErrorHandler`): a header block over Node's 16 KiB (431),
 *   a request not received within the time-out (408), anything unparsable (400). There is no
 *   request or reply object there, only the socket, so the answer is written by hand.
 */
import http from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { ApiError } from "../../contracts/errors";

/**
 * Longest path segment the router matches. Fastify's default of 100 made map ids (up to the
 * contract's 200 characters, more once percent-encoded) unreachable; above this it is 414.
 */
export const MAX_PARAM_LENGTH = 1000;

function frameworkError(error: FastifyError): ApiError {
  switch (error.code) {
    case "FST_ERR_MAX_PARAM_LENGTH":
      return {
        statusCode: 414,
        message: "URI too long",
        description: `A path segment is longer than the ${MAX_PARAM_LENGTH} characters allowed`,
      };
    case "FST_ERR_BAD_URL":
      return { statusCode: 400, message: "Bad request", description: "The path is not valid URL encoding" };
    default:
      return {
        statusCode: 500,
        message: "Internal server error",
        description: "Something went wrong on our side. It has been logged.",
      };
  }
}

function clientError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        statusCode: 431,
        message: "Request header fields too large",
        description: "The request's headers are larger than the 16 KiB allowed",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { statusCode: 408, message: "Request timeout", description: "The request was not received in time" };
    default:
      return { statusCode: 400, message: "Bad request", description: "The request is not valid HTTP" };
  }
}

/** Fastify options that route early refusals through here; `headers` are the security headers. */
export function earlyErrorHandlers(headers: Record<string, string>) {
  const answerHeaders = { ...headers, "cache-control": "no-store" };
  return {
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      const body = frameworkError(error);
      if (body.statusCode >= 500) request.log.error({ err: error }, "request failed before routing");
      reply.code(body.statusCode).headers(answerHeaders).type("application/json; charset=utf-8").send(body);
    },
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      // A reset connection has nobody to answer.
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      if (!socket.writable) {
        socket.destroy(error);
        return;
      }
      const body = clientError(error);
      const payload = JSON.stringify(body);
      const lines = [
        `HTTP/1.1 ${body.statusCode} ${http.STATUS_CODES[body.statusCode]}`,
        "content-type: application/json; charset=utf-8",
        `content-length: ${Buffer.byteLength(payload)}`,
        "connection: close",
        ...Object.entries(answerHeaders).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.end(`${lines.join("\r\n")}\r\n\r\n${payload}`, () => socket.destroy());
    },
  };
}
