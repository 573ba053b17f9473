/**
 * Evaluating a page's chunks one per task, before the app imports them.
 *
 * An `import()` evaluates every module it reaches that has not run yet, in one task: on a phone's
 * cold load of a portal page, the portal's code (Refine, React Query, zod and the contracts' schemas)
 * and the page's made long tasks on a 4× slower CPU. The build lists each route's chunks
 * with every chunk after those it imports (scripts/lib/prerender.ts, the order the browser itself
 * evaluates them in); importing them in that order, one per task, runs the same code in the same
 * order, in tasks no longer than one chunk's. The app's own imports then find them evaluated.
 */
import { inNextTask } from "../lib/idle";
import { routeChunkFiles } from "./route-chunk-files";

/** A task of its own for what follows (no timer's minimum delay). */
const nextTask = () => new Promise<void>((resolve) => void inNextTask(resolve));

/** Runs a chunk's modules (an import of its address; tests give their own). */
export type ChunkLoader = (href: string) => Promise<unknown>;

const importChunk: ChunkLoader = (href) => import(/* @vite-ignore */ href);

/**
 * Evaluates the chunks of the route at `pathname` (the build's lists in the page) one per task.
 * Resolves when done; a chunk that fails stops the turns (the app's own import then reports it).
 */
export async function evaluateRouteChunks(
  pathname: string,
  doc: Document = document,
  load: ChunkLoader = importChunk,
): Promise<void> {
  for (const file of routeChunkFiles(pathname, doc) ?? []) {
    await nextTask();
    try {
      await load(new URL(file, doc.baseURI).href);
    } catch {
      return;
    }
  }
}
