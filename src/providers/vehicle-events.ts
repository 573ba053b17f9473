/**
 * A car's flash sessions live, from its event stream (`GET /user-vehicles/{id}/listen`),
 * authenticated by the session cookie like the notification stream: opened once the cookie is
 * set; when the server refuses it (an expired cookie), the cookie is renewed and the stream
 * opened again. Folded by src/lib/flash-progress.ts.
 */
import { useEffect, useReducer } from "react";
import { apiRoutes } from "../../contracts/api-paths";
import { vehicleEventNames } from "../../contracts/flash-logs";
import { NO_PROGRESS, type FlashProgress, applyFlashEvent } from "../lib/flash-progress";
import { API_PREFIX } from "./data-provider";
import { useSession } from "./session-context";

const RETRY_MS = 3_000;

export function useVehicleEvents(vehicleId: string | undefined): FlashProgress {
  const session = useSession();
  const [state, dispatch] = useReducer(applyFlashEvent, NO_PROGRESS);
  useEffect(() => {
    if (!vehicleId || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = (ready: Promise<void>) =>
      void ready.then(() => {
        if (stopped) return;
        source = new EventSource(`${API_PREFIX}/${apiRoutes.vehicles.listen(vehicleId)}`, { withCredentials: true });
        source.addEventListener(vehicleEventNames.flashLog, (event) => dispatch({ type: "flash-log", log: JSON.parse((event as MessageEvent<string>).data) }));
        source.addEventListener(vehicleEventNames.flashStep, (event) => {
          const data = JSON.parse((event as MessageEvent<string>).data);
          dispatch({ type: "flash-step", flashLogId: data.flashLogId, step: data.step });
        });
        source.addEventListener(vehicleEventNames.order, () => dispatch({ type: "order" }));
        source.addEventListener(vehicleEventNames.preflight, (event) => dispatch({ type: "preflight", preflight: JSON.parse((event as MessageEvent<string>).data) }));
        source.onerror = () => {
          // A dropped connection reconnects by itself; a refused one is closed and needs a new cookie.
          if (source?.readyState !== EventSource.CLOSED) return;
          timer = setTimeout(() => open(session.remirror()), RETRY_MS);
        };
      });
    open(session.mirrored());
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [vehicleId, session]);
  return state;
}
