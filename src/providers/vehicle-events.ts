/**
 * A car's flash sessions live, from its event stream (`GET /user-vehicles/{id}/listen`), opened
 * with the session cookie (./session-stream). Folded by src/lib/flash-progress.ts.
 */
import { useEffect, useReducer } from "react";
import { apiRoutes } from "../../contracts/api-paths";
import { vehicleEventNames } from "../../contracts/flash-logs";
import { applyFlashEvent, type FlashProgress, NO_PROGRESS } from "../lib/flash-progress";
import { useSession } from "./session-context";
import { openSessionStream } from "./session-stream";

export function useVehicleEvents(vehicleId: string | undefined): FlashProgress {
  const session = useSession();
  const [state, dispatch] = useReducer(applyFlashEvent, NO_PROGRESS);
  useEffect(() => {
    if (!vehicleId) return;
    return openSessionStream(session, apiRoutes.vehicles.listen(vehicleId), {
      [vehicleEventNames.flashLog]: (data) => dispatch({ type: "flash-log", log: JSON.parse(data) }),
      [vehicleEventNames.flashStep]: (data) => {
        const parsed = JSON.parse(data);
        dispatch({ type: "flash-step", flashLogId: parsed.flashLogId, step: parsed.step });
      },
      [vehicleEventNames.order]: () => dispatch({ type: "order" }),
      [vehicleEventNames.preflight]: (data) => dispatch({ type: "preflight", preflight: JSON.parse(data) }),
    });
  }, [vehicleId, session]);
  return state;
}
