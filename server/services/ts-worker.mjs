// A worker thread does not inherit the tsx loader of the thread that starts it, so the worker
// registers it itself, then loads the TypeScript module named in workerData.module (a file URL).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
