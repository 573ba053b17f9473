/**
 * How the API server process is started, by `npm start`, `npm test` and the
 * benches that run it apart.
 *
 * --no-incremental-marking: the server handles images of megabytes, and node
 * allocates a fresh buffer for every 64 KiB it reads from a socket, so V8
 * starts a full collection for "external memory pressure" every few image
 * requests. Marked incrementally, each cycle put its marking steps into
 * the requests it ran beside; marked at once (in parallel), it is one short
 * pause. bench/tune-api.ts shows the difference in
 * its patch-apply p99.
 */
export const SERVER_NODE_FLAGS = ["--no-incremental-marking", "--import", "tsx"];
export const SERVER_ENTRY = "server/main.ts";
