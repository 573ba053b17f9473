// A worker thread does not inherit the tsx loader of the thread that starts it, so the worker
// registers it itself before loading the TypeScript module that does the work.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
