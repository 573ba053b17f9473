/**
 * Tune files: a dealer's tunes, their versions, publishing and grants, and
 * the inspection of an uploaded image. Who may see or change a tune is
 * decided in services/tune-access.ts; the viewer's endpoints are in
 * tune-viewer.ts, bakes in vehicle-bakes.ts and baked-files.ts.
 *
 * Every refused upload leaves nothing behind: files are checked before they
 * are adopted into the blob store, and rows are written last.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { registerTuneChangeRoutes } from "./changes";
import { registerInspectionRoutes } from "./inspection";
import { registerTuneReadRoutes } from "./reading";
import { registerTuneSaleRoutes } from "./sales";

export { tuneListSpec } from "./list-spec";

export async function tuneFileRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerInspectionRoutes(app, ctx);
  registerTuneReadRoutes(app, ctx);
  registerTuneChangeRoutes(app, ctx);
  registerTuneSaleRoutes(app, ctx);
}
