/**
 * Firmware support (admin only): firmware records with their stock file and
 * flashing support, the support matrix, supported vehicles, OBD functions,
 * PID descriptors (with CSV import and export), PID templates, computed
 * descriptors and password storage, one file per resource.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { computedDescriptorRoutes } from "./computed-descriptors";
import { firmwareMatrixRoutes } from "./firmware-matrix";
import { firmwareRecordRoutes } from "./firmware-support";
import { flashingSupportRoutes } from "./flashing-support";
import { obdFunctionRoutes } from "./obd-functions";
import { passwordStorageRoutes } from "./password-storage";
import { pidDescriptorRoutes } from "./pid-descriptors";
import { pidTemplateRoutes } from "./pid-templates";
import { supportedVehicleRoutes } from "./supported-vehicles";

export async function firmwareSupportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  for (const routes of [
    firmwareRecordRoutes,
    flashingSupportRoutes,
    firmwareMatrixRoutes,
    supportedVehicleRoutes,
    obdFunctionRoutes,
    pidDescriptorRoutes,
    pidTemplateRoutes,
    computedDescriptorRoutes,
    passwordStorageRoutes,
  ]) {
    await app.register(routes, { ctx });
  }
}
